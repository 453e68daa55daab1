"""References to the files a tree translation renames (``--out-dir``: ``kernels.cu`` becomes
``kernels.hip``), made to follow the rename, so the port names its own files.

A ``.cu`` file that another includes (``#include "kernels.cu"``, a pattern of programs that build
one unit) is renamed like every other ``.cu`` file: the build files' ``.cu`` names and patterns
(``%.o: %.cu``, ``$(wildcard *.cu)``, ``file(GLOB ... *.cu)``) become ``.hip`` as a whole, so a file
that kept its name would drop out of a glob the original's build matched it with (or a ``.cu``
glob would still find HIP code). What follows here:

* includes (:func:`includes`): a quoted include found as the compiler finds it (beside the
  including file, then in the tree's folders) and an angled one found in the tree's folders, or as
  the one renamed file whose path ends with the name written, when that file was renamed;
* shell scripts of the tree (:func:`script`): a word naming a renamed file (by its file name) or a
  glob on the renamed suffix (``*.cu``).

Build files follow by their porters (``settings.renamed_sources``); ``--in-place`` renames nothing.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Collection, Sequence
from pathlib import Path

from cass_lsp.compile import includes as compile_includes

_SCRIPT_SUFFIXES = (".sh", ".bash", ".zsh", ".ksh")
_SHEBANG = re.compile(rb"#![ \t]*\S*(?:/|env[ \t]+)(?:ba|z|k|da)?sh\b")
_GLOB = re.compile(r"[*?\[]")


class Renamer:
    """The renamed files of one tree translation: real path of each original -> the name its
    translation has (``rename``: a file name or path with its suffix changed)."""

    def __init__(self, renamed: Collection[str], rename: Callable[[str], str], folders: Sequence[str]) -> None:
        self.renamed = {os.path.realpath(path) for path in renamed}
        self.rename = rename
        self.folders = [Path(f) for f in folders if os.path.isdir(f)]
        self.names = {os.path.basename(path) for path in self.renamed}

    def _reaches(self, name: str, including: str, angled: bool) -> bool:
        """``name`` (as an include writes it, in the file ``including``) names a renamed file."""
        here = Path(including).parent
        found = (compile_includes.resolve(name, self.folders[0], self.folders[1:]) if self.folders else None) \
            if angled else compile_includes.resolve(name, here, self.folders)
        if found is not None:
            return str(found) in self.renamed
        suffix = os.sep + os.path.normpath(name)
        return len([path for path in self.renamed if path.endswith(suffix)]) == 1

    def includes(self, text: bytes, including: str) -> tuple[bytes, int]:
        """``text`` (the translation of the file ``including``) with each include of a renamed file
        naming its translation, and how many were changed."""
        decoded = text.decode("utf-8", "surrogateescape")
        lines = decoded.split("\n")
        changed = 0
        for directive in compile_includes.directives(decoded):
            if directive.embeds or os.path.basename(directive.name) not in self.names:
                continue
            if not self._reaches(directive.name, including, directive.angled):
                continue
            opening, closing = ("<", ">") if directive.angled else ('"', '"')
            spelled = f"{opening}{directive.name}{closing}"
            line = lines[directive.line - 1]
            if spelled in line:
                lines[directive.line - 1] = line.replace(spelled, f"{opening}{self.rename(directive.name)}{closing}", 1)
                changed += 1
        return ("\n".join(lines).encode("utf-8", "surrogateescape"), changed) if changed else (text, 0)

    def script(self, text: bytes, source_suffix: str) -> bytes | None:
        """A shell script's text with the words that name renamed files (or glob on their suffix)
        renamed; None when it names none."""
        word = re.compile(rf"(?<![\w.+-])[^\s'\"`;|&<>()=]*{re.escape(source_suffix)}(?![\w.])")
        decoded = text.decode("utf-8", "surrogateescape")

        def follow(match: re.Match[str]) -> str:
            found = match.group()
            if _GLOB.search(os.path.basename(found)) or os.path.basename(found) in self.names:
                return self.rename(found)
            return found

        new = word.sub(follow, decoded)
        return None if new == decoded else new.encode("utf-8", "surrogateescape")


def is_script(path: str, head: bytes) -> bool:
    """``path`` (whose text starts with ``head``) is a shell script."""
    return path.endswith(_SCRIPT_SUFFIXES) or _SHEBANG.match(head) is not None
