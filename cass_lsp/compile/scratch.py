"""The private temp dir a compile of an editor buffer runs in, and the way back to the user's files.

The buffer is compiled, not the file on disk: it is written into the temp dir under its own name
(or an inert one, below), next to its local headers (translated when the buffer is CUDA compiled as HIP), and ``-I<the file's
dir>`` keeps its other quote includes working. Listings and verification both compile this way, and
both map every path and line a compiler prints back to the user's file with :class:`Scratch`.

nvcc runs its sub-tools through ``sh`` command lines and puts a unit's name (its real path, links
resolved) on them inside double quotes or none, ``-I`` folders in double quotes: a repository's file
named ``j$(cmd).cu`` ran ``cmd``. So every path a compiler is handed (every compiler, for one rule) is
:data:`INERT`: in the scratch folder, units and folders lie under such names (:class:`Layout`), with a
link under the user's name beside each one renamed, since ``#include`` text names them so (headers
keep their names: they are never on a command line); a user's folder is handed over as a link to it
(:meth:`Scratch.inert`). The way back (:meth:`Scratch.map_path`) names the user's files.
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path

from cass_lsp.compile import commands as ccdb
from cass_lsp.compile import includes
from cass_lsp.compile.linemap import LineMap
from cass_lsp.core.profile import TranslateOptions

INERT = re.compile(r"[A-Za-z0-9._/-]+")
"""A path no shell acts on (nor nvcc, which splits some values at commas)."""
_NOT_INERT = re.compile(r"[^A-Za-z0-9._-]")
# the digest in a new name: two names that differ only where characters were replaced differ there
_DIGEST = 8


class UnsafeName(ValueError):
    """A path a compiler would be handed that cannot be given a name a shell leaves alone."""

    def __init__(self, path: str, why: str) -> None:
        super().__init__(f"a file name nvcc would pass to a shell: {path} ({why})")


def require_inert(root: str) -> None:
    """Refuse a scratch folder whose own name a shell would act on (it is in every path handed over)."""
    if not INERT.fullmatch(root):
        raise UnsafeName(root, "the scratch folder's own name; set TMPDIR to a plain path")


def _inert_names(name: str) -> Iterator[str]:
    """Candidate :data:`INERT` names for ``name``, deterministic: what is not inert replaced, then a
    digest of the whole name, then a count; the suffix stays (it tells nvcc and clang the language)."""
    stem, suffix = os.path.splitext(_NOT_INERT.sub("_", name))
    digest = hashlib.sha256(name.encode("utf-8", "surrogateescape")).hexdigest()[:_DIGEST]
    yield f"{stem}-{digest}{suffix}"
    for count in itertools.count(2):
        yield f"{stem}-{digest}-{count}{suffix}"


class Layout:
    """Where the user's files lie in the scratch folder (paths relative to it and to the folder it
    mirrors): every folder and every unit whose name is not :data:`INERT` under a new name (a unit
    in ``a$(x)/u`y`.cu`` lies at ``a_x_-<digest>/u_y_-<digest>.cu``), headers under their own; no new
    name is one the folder already has, so none stands in for another file."""

    def __init__(self, files: Mapping[str, bool], folders: Iterable[str] = ()) -> None:
        """``files``: relative path → whether a compiler is handed its name (a unit); ``folders``:
        more folders that may be handed over (``-I``)."""
        children: dict[tuple[str, ...], set[str]] = {}
        folder_paths: set[tuple[str, ...]] = set()
        for relative in [*files, *folders]:
            parts = _parts(relative)
            for i, part in enumerate(parts):
                children.setdefault(parts[:i], set()).add(part)
            folder_paths.update(parts[:i] for i in range(1, len(parts)))
        folder_paths.update(_parts(f) for f in folders)
        units = {_parts(f) for f, unit in files.items() if unit}
        self.renamed: dict[tuple[str, ...], str] = {}
        """A folder or unit (its real parts) → its new name."""
        for prefix, names in children.items():
            taken = set(names)
            for name in sorted(names):
                path = (*prefix, name)
                if INERT.fullmatch(name) or (path not in folder_paths and path not in units):
                    continue
                new = next(n for n in _inert_names(name) if n not in taken)
                taken.add(new)
                self.renamed[path] = new

    def place(self, relative: str) -> str:
        """Where ``relative`` lies in the scratch folder."""
        parts = _parts(relative)
        return os.path.join(".", *(self.renamed.get(parts[: i + 1], part) for i, part in enumerate(parts)))

    def write(self, scratch: Scratch) -> None:
        """Make ``scratch``'s folders and, beside each new name, a link to it under the user's name
        (what ``#include`` text says); record the new names for the way back."""
        for parts, new in sorted(self.renamed.items(), key=lambda item: len(item[0])):
            real = os.sep.join(parts)
            folder = Path(scratch.root, self.place(os.path.dirname(real)))
            folder.mkdir(parents=True, exist_ok=True)
            os.symlink(new, folder / parts[-1])
            scratch.links[os.path.normpath(folder / new)] = os.path.normpath(Path(scratch.root, real))


def _parts(relative: str) -> tuple[str, ...]:
    return tuple(p for p in os.path.normpath(relative).split(os.sep) if p != ".")


def project_inputs(
    source: str, file: Path, compile_commands: str | Path | None, extra_args: Sequence[str] = ()
) -> tuple[list[str], tuple[Path, ...], tuple[includes.Refusal, ...]]:
    """The flags every compile of ``file``'s buffer takes after ``-I`` its folder (which the caller
    adds, under :meth:`Scratch.inert`'s name): its compile_commands.json entry's preprocessor
    options; the local headers it includes (which are part of a result's key and are translated
    beside it); and the includes, with ``extra_args`` too, that must not be compiled
    (:func:`cass_lsp.compile.includes.refusals`)."""
    database = ccdb.find(file, compile_commands)
    project_flags = ccdb.flags_for(file, database) if database else []
    include_dirs = [Path(f[2:]) for f in project_flags if f.startswith("-I")]
    headers = tuple(includes.local_headers(source, file, [file.parent, *include_dirs], includes.project_dirs(include_dirs)))
    flags = [*project_flags, *extra_args]
    searched = includes.search_dirs(flags)
    refused = includes.refusals(
        source, file, [file.parent, *searched], includes.project_dirs(searched), includes.forced(flags)
    )
    return project_flags, headers, tuple(refused)


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
    links: dict[str, str] = dataclasses.field(default_factory=dict)
    """Each :data:`INERT` path given in place of another (:class:`Layout`, :meth:`inert`) → that path."""

    def inert(self, folder: str | Path) -> str:
        """The user's ``folder`` as a compiler may be handed it (``-I``): itself when it is
        :data:`INERT`, else a link to it at the top of the scratch folder under such a name."""
        text = os.path.normpath(str(folder))
        if INERT.fullmatch(text):
            return text
        require_inert(self.root)
        candidates = (os.path.join(self.root, name) for name in _inert_names(os.path.basename(text)))
        link = next(c for c in candidates if self.links.get(c) == text or not os.path.lexists(c))
        if link not in self.links:
            os.symlink(text, link)
            self.links[link] = text
        return link

    def map_path(self, printed: str) -> str:
        path = self._through_links(os.path.normpath(os.path.join(self.root, printed)))
        if path.startswith(self.root + os.sep):
            return os.path.normpath(self.base / os.path.relpath(path, self.root))
        return path

    def _through_links(self, path: str) -> str:
        """``path`` with its longest leading new name (:attr:`links`) replaced by what it stands for."""
        for link in sorted(self.links, key=len, reverse=True):
            if path == link or path.startswith(link + os.sep):
                return self.links[link] + path[len(link):]
        return path

    def unlinked(self, text: str) -> str:
        """``text`` (a compiler's output) naming the path each new name stands for instead."""
        for link in sorted(self.links, key=len, reverse=True):
            text = text.replace(link, self.links[link])
        return text

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
) -> tuple[Scratch, Path]:
    """Write ``source`` (the buffer of ``path``) into ``root``; with ``translate_to``, its rule
    translation (by ``translator``) and the translations of its local ``headers`` inside the file's
    folder. Returns the scratch folder and the buffer's copy (under an :data:`INERT` name). Raises
    :class:`UnsafeName` for a ``root`` whose own name is not inert."""
    require_inert(root)
    scratch = Scratch(root, path.parent, {})
    # outside the file's folder: compiled as it is, through -I
    inside = {h: os.path.relpath(h, path.parent) for h in headers} if translate_to is not None else {}
    inside = {h: r for h, r in inside.items() if not r.startswith("..")}
    layout = Layout({path.name: True, **{r: False for r in inside.values()}})
    layout.write(scratch)
    main = Path(root, layout.place(path.name))
    if translate_to is None:
        main.write_text(source, encoding="utf-8", errors="surrogateescape")
        return scratch, main
    text, line_map, unsupported = translator(source, translate_to)
    main.write_text(text, encoding="utf-8", errors="surrogateescape")
    scratch.line_maps[str(path)] = line_map
    for header, relative in inside.items():
        original = header.read_text(encoding="utf-8", errors="surrogateescape")
        h_text, h_map, h_unsupported = translator(original, translate_to)
        copy = Path(root, layout.place(relative))
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_text(h_text, encoding="utf-8", errors="surrogateescape")
        scratch.line_maps[str(header)] = h_map
        unsupported += h_unsupported
    scratch.note = f"built from the in-memory rule translation to HIP (ROCm {translate_to.rocm})"
    if unsupported:
        scratch.note += f"; {unsupported} construct(s) could not be translated"
    return scratch, main
