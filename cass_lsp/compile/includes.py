"""The project headers a file pulls in, found the way the compiler does.

Used for cache keys (a listing depends on its local headers' text) and to give the AMD side a
translated copy of each local header. A project header is one a ``#include "..."`` reaches, or a
``#include <...>`` finds in one of the project's own ``-I`` folders (NVIDIA's samples include
``<helper_cuda.h>`` from their ``Common`` folder): :func:`project_dirs` tells those from system and
toolkit folders, whose headers the toolchain versions in the cache key already cover.

The same walk finds the includes no compile may start with (:func:`refusals`): one that reaches
something other than a regular file of a real file system (``/dev/zero``, a FIFO, ``/proc/self/…``)
would have the compiler read without end or block for ever. Directives are found the way a
preprocessor finds them (line splices, comments before the ``#``, ``%:``, trigraphs), and in every
branch of ``#if``: the text is copied byte for byte, and a branch taken or not depends on macros.
"""

from __future__ import annotations

import bisect
import dataclasses
import os
import re
import stat
import sys
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from cass_lsp.compile.diagnostic import CompilerDiagnostic

# Whitespace and whole comments, which may stand between the parts of a directive.
_GAP = r"(?:[ \t\v\f]|/\*[^\n]*?\*/)*"
# A directive that reads a file, on one logical line; a comment ending at its start (``*/``) is
# skipped too, so a directive after a block comment is never missed. #import and #include_next are
# GCC's and clang's, #embed clang 19's.
_DIRECTIVE = re.compile(
    rf"(?:[^\n]*?\*/)?{_GAP}(?:#|%:){_GAP}(?P<kind>include_next|include|import|embed)\b{_GAP}"
    r'(?:"(?P<quoted>[^"\n]+)"|<(?P<angled>[^>\n]+)>)'
)
# Only lines with one of these words are tried: a whole file tried position by position is slow.
_WORD = re.compile(r"include|import|embed")
_SPLICE = re.compile(r"\\[ \t]*\r?\n")
_SEARCH_FLAGS = ("-I", "-isystem", "-iquote", "-idirafter")
# File systems whose "regular" files are the kernel's: endless, blocking or secret (procfs, sysfs…).
_PSEUDO_FS = frozenset({
    "proc", "sysfs", "debugfs", "tracefs", "securityfs", "cgroup", "cgroup2", "configfs", "bpf", "pstore",
    "efivarfs", "fusectl", "binfmt_misc", "devpts", "devtmpfs", "mqueue", "autofs", "rpc_pipefs", "nsfs",
    "selinuxfs", "nfsd",
})  # fmt: skip
MAX_HEADERS = 256
_SYSTEM_PREFIXES = tuple(Path(p) for p in ("/usr", "/opt", "/lib", "/lib64", "/etc", sys.prefix, sys.base_prefix))
# a folder holding one of these is a toolkit's include folder, wherever it lies
_CUDA_MARKERS = ("cuda_runtime.h", "cuda.h", "crt/host_defines.h")
_TOOLKIT_MARKERS = (*_CUDA_MARKERS, "hip/hip_runtime.h")


@dataclasses.dataclass(frozen=True)
class Directive:
    line: int
    """1-based: the line the directive starts on."""
    name: str
    angled: bool
    embeds: bool
    """``#embed``: the file's bytes, not a header."""


@dataclasses.dataclass(frozen=True)
class Refusal:
    """An include that no compile may start with."""

    file: Path
    """The file that holds it."""
    line: int
    """1-based; 0 for a ``-include`` flag."""
    name: str
    target: Path
    what: str
    """What ``target`` is, in words ("a character device")."""

    def diagnostic(self) -> CompilerDiagnostic:
        """An error on the include's line (a ``-include`` flag's on the first)."""
        return CompilerDiagnostic("error", self.message, str(self.file), max(self.line, 1))

    @property
    def message(self) -> str:
        spelled = f"-include {self.name}" if self.line == 0 else f"#include {self.name!r}"
        return (
            f"{spelled} reaches {self.target}, {self.what}, not a regular file: refused before compiling"
            " (a compiler reading it may never finish)"
        )


def directives(text: str) -> list[Directive]:
    """Every directive of ``text`` that reads a file, with a name written out (``#include MACRO``
    is the compiler's to expand; its bounds still hold it)."""
    # Trigraphs (??= is #, ??/ a backslash) count as in the strict language modes that have them.
    text = text.replace("??=", "#").replace("??/", "\\")
    # Join spliced lines, remembering where each splice was to give directives their first line.
    splices: list[int] = []
    parts: list[str] = []
    kept = 0
    last = 0
    for splice in _SPLICE.finditer(text):
        parts.append(text[last : splice.start()])
        kept += splice.start() - last
        splices.append(kept)
        last = splice.end()
    parts.append(text[last:])
    joined = "".join(parts)
    found = []
    line, counted, tried = 1, 0, -1
    for word in _WORD.finditer(joined):
        start = joined.rfind("\n", 0, word.start()) + 1
        if start == tried:
            continue
        tried = start
        end = joined.find("\n", word.end())
        match = _DIRECTIVE.match(joined, start, len(joined) if end < 0 else end)
        if match is None:
            continue
        line += joined.count("\n", counted, start)
        counted = start
        angled = match["angled"] is not None
        name = match["angled"] if angled else match["quoted"]
        found.append(
            Directive(line + bisect.bisect_right(splices, match.start()), name, angled, match["kind"] == "embed")
        )
    return found


def search_dirs(flags: Iterable[str]) -> list[Path]:
    """The folders ``-I``, ``-isystem``, ``-iquote`` and ``-idirafter`` add, in order."""
    out: list[Path] = []
    pending = False
    for flag in flags:
        if pending:
            out.append(Path(flag))
            pending = False
        elif flag in _SEARCH_FLAGS:
            pending = True
        elif flag.startswith(_SEARCH_FLAGS):
            option = next(o for o in sorted(_SEARCH_FLAGS, key=len, reverse=True) if flag.startswith(o))
            out.append(Path(flag[len(option) :]))
    return out


def forced(flags: Sequence[str]) -> list[str]:
    """The files ``-include`` names."""
    return [flags[i + 1] for i, flag in enumerate(flags[:-1]) if flag == "-include"]


def not_regular(path: Path) -> str | None:
    """What ``path`` is when a compiler must not read it (a device, a FIFO, a socket, a file of the
    kernel's /proc or /sys); None for a regular file of a real file system or what cannot be stat'ed."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    if stat.S_ISREG(st.st_mode):
        fs = _pseudo_file_systems().get(st.st_dev)
        return None if fs is None else f"a file of the kernel's {fs} file system"
    for test, what in (
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(st.st_mode):
            return what
    return None


def _pseudo_file_systems() -> dict[int, str]:
    """Device number → file system type of every pseudo file system mounted (read each time:
    mounts change while the server runs)."""
    found: dict[int, str] = {}
    try:
        with open("/proc/self/mountinfo", encoding="utf-8", errors="replace") as f:
            for line in f:
                fields, _, rest = line.partition(" - ")
                parts = fields.split()
                fs = rest.split(" ", 1)[0]
                if len(parts) > 2 and fs in _PSEUDO_FS:
                    major, _, minor = parts[2].partition(":")
                    found[os.makedev(int(major), int(minor))] = fs
    except (OSError, ValueError):
        # no mount table to read: the usual mount points stand for it
        for folder, fs in (("/proc", "proc"), ("/sys", "sysfs")):
            try:
                found[os.stat(folder).st_dev] = fs
            except OSError:
                continue
    return found


def is_cuda_toolkit_dir(folder: str | Path) -> bool:
    """``folder`` is a CUDA toolkit's include folder (a CUDA install's, or the nvcc wheels')."""
    return any(os.path.isfile(os.path.join(folder, marker)) for marker in _CUDA_MARKERS)


def project_dirs(include_dirs: Iterable[Path]) -> list[Path]:
    """The ``-I`` folders that hold the project's own headers: not under a system prefix (``/usr``,
    ``/opt``, this Python's) and not a toolkit's include folder."""
    out = []
    for folder in include_dirs:
        if any(folder == prefix or folder.is_relative_to(prefix) for prefix in _SYSTEM_PREFIXES):
            continue
        if any((folder / marker).is_file() for marker in _TOOLKIT_MARKERS):
            continue
        out.append(folder)
    return out


def resolve(name: str, including_dir: Path, include_dirs: Sequence[Path]) -> Path | None:
    """What a compiler opens for ``name``: the first candidate that exists and is no folder, in the
    directory of the including file first, then the ``-I`` directories (symbolic links followed)."""
    for base in (including_dir, *include_dirs):
        candidate = base / name
        if candidate.exists() and not candidate.is_dir():
            return candidate.resolve()
    return None


def _walk(
    text: str, path: Path, include_dirs: Sequence[Path], angled_dirs: Sequence[Path], forced_names: Sequence[str]
) -> Iterator[tuple[Path, int, str, bool, Path]]:
    """(including file, line, name, embeds, what it reaches) for every include reachable from
    ``text`` (the contents of ``path``) that reaches a file: quote includes searched in the
    including folder, then ``include_dirs``; angle includes in ``angled_dirs`` (an absolute name
    wherever it is written); ``forced_names`` (``-include``) as if quote-included from ``path`` on
    line 0. Project headers are read and followed, once each."""
    seen: set[Path] = {path.resolve()}
    pending: list[tuple[Path, list[tuple[int, str, bool, bool]]]] = [
        (path, [(0, name, False, False) for name in forced_names] + _named(text))
    ]
    followed = 0
    while pending and followed < MAX_HEADERS:
        including, names = pending.pop()
        for line, name, angled, embeds in names:
            if angled and not os.path.isabs(name):
                target = resolve(name, angled_dirs[0], angled_dirs[1:]) if angled_dirs else None
            else:
                target = resolve(name, including.parent, include_dirs)
            if target is None:
                continue
            yield including, line, name, embeds, target
            if embeds or target in seen or not_regular(target) is not None:
                continue
            seen.add(target)
            followed += 1
            try:
                pending.append((target, _named(target.read_text(encoding="utf-8", errors="surrogateescape"))))
            except OSError:
                continue


def _named(text: str) -> list[tuple[int, str, bool, bool]]:
    return [(d.line, d.name, d.angled, d.embeds) for d in directives(text)]


def local_headers(
    text: str,
    path: Path,
    include_dirs: Sequence[Path],
    angled_dirs: Sequence[Path] = (),
    forced_names: Sequence[str] = (),
) -> list[Path]:
    """Every project header reachable from ``text`` (the contents of ``path``), in discovery order:
    quote-included ones (searched in the including folder, then ``include_dirs``), and
    angle-included ones found in ``angled_dirs`` (the project's own ``-I`` folders)."""
    found: dict[Path, None] = {}
    for _, _, _, embeds, target in _walk(text, path, include_dirs, angled_dirs, forced_names):
        if not embeds and target != path.resolve() and not_regular(target) is None:
            found.setdefault(target)
    return list(found)


def refusals(
    text: str,
    path: Path,
    include_dirs: Sequence[Path],
    angled_dirs: Sequence[Path] = (),
    forced_names: Sequence[str] = (),
) -> list[Refusal]:
    """The includes reachable from ``text`` (as :func:`local_headers` walks them) that reach a file
    no compiler may read (:func:`not_regular`)."""
    out = []
    for including, line, name, _, target in _walk(text, path, include_dirs, angled_dirs, forced_names):
        what = not_regular(target)
        if what is not None:
            out.append(Refusal(including, line, name, target, what))
    return out
