"""The private temp dir a compile of an editor buffer runs in, and the way back to the user's files.

The buffer is compiled, not the file on disk: it is written into the temp dir under its own name,
next to its local headers (translated when the buffer is CUDA compiled as HIP), and ``-I<the file's
dir>`` keeps its other quote includes working. Listings and verification both compile this way, and
both map every path and line a compiler prints back to the user's file with :class:`Scratch`.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path

from cass_lsp.compile import commands as ccdb
from cass_lsp.compile import includes
from cass_lsp.compile.linemap import LineMap
from cass_lsp.core.profile import TranslateOptions


def project_inputs(
    source: str, file: Path, compile_commands: str | Path | None, extra_args: Sequence[str] = ()
) -> tuple[list[str], tuple[Path, ...], tuple[includes.Refusal, ...]]:
    """The flags every compile of ``file``'s buffer takes (``-I`` its folder, then its
    compile_commands.json entry's preprocessor options), the local headers it includes (which
    are part of a result's key and are translated beside it), and the includes, with
    ``extra_args`` too, that must not be compiled (:func:`cass_lsp.compile.includes.refusals`)."""
    database = ccdb.find(file, compile_commands)
    project_flags = ccdb.flags_for(file, database) if database else []
    include_dirs = [Path(f[2:]) for f in project_flags if f.startswith("-I")]
    headers = tuple(includes.local_headers(source, file, [file.parent, *include_dirs], includes.project_dirs(include_dirs)))
    flags = [*project_flags, *extra_args]
    searched = includes.search_dirs(flags)
    refused = includes.refusals(
        source, file, [file.parent, *searched], includes.project_dirs(searched), includes.forced(flags)
    )
    return [f"-I{file.parent}", *project_flags], headers, tuple(refused)


@dataclasses.dataclass(frozen=True)
class HipTarget:
    """What a CUDA buffer is translated for before it is compiled as HIP."""

    arch: str
    rocm: str
    options: TranslateOptions | None = None


Translator = Callable[[str, HipTarget], tuple[str, LineMap, int]]
"""The rule translation of a buffer for a HIP target: (HIP text, its line map, number of untranslatable
constructs). The engine passes it in (:func:`cass_lsp.translate.buffer.translated`): compiling knows
no translation engine."""
RuntimePlacer = Callable[[Mapping[str, bytes], Iterable[str]], Mapping[str, bytes]]
"""The tree-level placement of the HIP runtime include: the translations of a tree's files and its
include folders -> the translation units that must include the runtime first, with it added
(:func:`cass_lsp.translate.placement.tree_fixes`)."""


@dataclasses.dataclass
class Scratch:
    """The temp dir's files and how to map what the tools print back to the user's files: the temp
    dir mirrors the user's folder ``base`` (a file at ``root/x/y.cu`` stands for ``base/x/y.cu``)."""

    root: str
    base: Path
    line_maps: dict[str, LineMap]
    note: str | None = None

    def map_path(self, printed: str) -> str:
        path = os.path.normpath(os.path.join(self.root, printed))
        if path.startswith(self.root + os.sep):
            return os.path.normpath(self.base / os.path.relpath(path, self.root))
        return path

    def map_location(self, printed: str, line: int) -> tuple[str, int]:
        path = self.map_path(printed)
        line_map = self.line_maps.get(path)
        return path, line_map.original(line) if line_map else line

    def shown(self, argv: list[str]) -> list[str]:
        """``argv`` as the user may see it: the temp dir is ``<tmp>``."""
        return [a.replace(self.root, "<tmp>") for a in argv]


def materialize(
    root: str,
    source: str,
    path: Path,
    headers: tuple[Path, ...],
    translate_to: HipTarget | None,
    translator: Translator,
) -> Scratch:
    """Write ``source`` (the buffer of ``path``) into ``root``; with ``translate_to``, its rule
    translation (by ``translator``) and the translations of its local ``headers`` inside the file's folder."""
    scratch = Scratch(root, path.parent, {})
    main = Path(root, path.name)
    if translate_to is None:
        main.write_text(source, encoding="utf-8", errors="surrogateescape")
        return scratch
    text, line_map, unsupported = translator(source, translate_to)
    main.write_text(text, encoding="utf-8", errors="surrogateescape")
    scratch.line_maps[str(path)] = line_map
    for header in headers:
        relative = os.path.relpath(header, path.parent)
        if relative.startswith(".."):
            continue  # outside the file's folder: compiled as it is, through -I
        original = header.read_text(encoding="utf-8", errors="surrogateescape")
        h_text, h_map, h_unsupported = translator(original, translate_to)
        copy = Path(root, relative)
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_text(h_text, encoding="utf-8", errors="surrogateescape")
        scratch.line_maps[str(header)] = h_map
        unsupported += h_unsupported
    scratch.note = f"built from the in-memory rule translation to HIP (ROCm {translate_to.rocm})"
    if unsupported:
        scratch.note += f"; {unsupported} construct(s) could not be translated"
    return scratch
