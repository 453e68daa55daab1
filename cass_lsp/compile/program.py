"""A *program*: the units that link into one executable, the translation each unit takes, the
headers they reach and the flags they compile with. Verification compiles and runs programs, not
files: real CUDA code keeps its kernels, its ``main`` and its host helpers in separate units.

Which units make the program of a file:

* where a ``compile_commands.json`` has an entry for the file, its entries name the candidate
  units and their flags;
* else the ``.cu``/``.cpp``/``.cc``/``.cxx`` files of the file's folder are the candidates (a file
  that is another candidate's translation is not one);
* among the candidates, those defining ``main`` (:mod:`cass_lsp.compile.entry`: any spelling) decide: none, and the file is a program alone
  (compiled, nothing to run); one, and every candidate belongs to it; several, and each
  ``main``-unit makes one program with the candidates that define no ``main``.

Each unit takes the translation file a pattern of ``cass.verification.translationPatterns`` names
(``foo.hip`` beside ``foo.cu``), else its rule translation. :func:`materialize` writes a program
into a scratch folder as written, translated, or prepared for the CPU runtime, with its local headers
(:func:`headers`) laid out as in the user's tree (units and folders under names no shell acts on,
:class:`cass_lsp.compile.scratch.Layout`), and maps what compilers print back to the user's files.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Literal

import msgspec

from cass_lsp.compile import commands as ccdb
from cass_lsp.compile import entry, includes, nvcc_flags
from cass_lsp.compile.linemap import LineMap
from cass_lsp.compile.nvcc_flags import Flags
from cass_lsp.compile.scratch import HipTarget, Layout, RuntimePlacer, Scratch, Translator, require_inert
from cass_lsp.core import pairs
from cass_lsp.core.filekinds import COMMAND_UNIT_SUFFIXES, CUDA_HEADER_SUFFIX, HEADER_SUFFIXES, UNIT_SUFFIXES

# Data files a program reads from its folder are copied into each run's working directory.
DATA_LIMIT_BYTES = 64 * 1024 * 1024
DATA_LIMIT_FILES = 1000
_NOT_DATA = {*COMMAND_UNIT_SUFFIXES, CUDA_HEADER_SUFFIX, *HEADER_SUFFIXES[:5], ".o", ".obj", ".ptx", ".cubin"}
_NOTE_NAMES = 5  # the links left out a data note names; more are counted

Side = Literal["original", "translation"]


class Unit(msgspec.Struct, frozen=True):
    original: str
    """Absolute path of the CUDA (or host C++) unit."""
    translation: str | None = None
    """Its translation file; None: its rule translation."""
    arguments: tuple[str, ...] = ()
    """Its compile_commands.json arguments (compiler left out), as the build wrote them."""
    directory: str | None = None
    """The entry's directory, which relative paths in ``arguments`` start from."""
    project: str | None = None
    """The folder of the build the entry came from (its compile_commands.json's): response files in
    ``arguments`` are read only from inside it (None: none is)."""


class Program(msgspec.Struct, frozen=True):
    root: str
    """The folder the program runs from: its data files are copied from here."""
    units: tuple[Unit, ...]
    origin: str
    """How its units were found, in words (for the verdict)."""
    main: str | None = None
    """The unit defining ``main``; None: nothing to run."""

    @property
    def files(self) -> tuple[str, ...]:
        """Every user file of the program: originals and translation files."""
        return tuple(f for u in self.units for f in (u.original, u.translation) if f is not None)

    def unit(self, path: str) -> Unit | None:
        return next((u for u in self.units if path in (u.original, u.translation)), None)

    def describe(self) -> str:
        first = self.units[0] if self.main is None else self.unit(self.main)
        assert first is not None
        name = os.path.basename(first.original)
        if first.translation is not None:
            name += f" ↔ {os.path.basename(first.translation)}"
        elif len(self.units) == 1:
            name += " (rule translation)"
        others = len(self.units) - 1
        return name if not others else f"{name} + {others} unit{'s' if others > 1 else ''}"

    def flags(self, unit: Unit, user: Flags) -> Flags:
        """``unit``'s build flags (compile_commands.json), then the user's."""
        return nvcc_flags.split(unit.arguments, unit.directory, unit.project) + user


def defines_main(text: str) -> bool:
    """Whether ``text`` defines ``main`` (:mod:`cass_lsp.compile.entry`: any spelling of it)."""
    return entry.main_offset(text) is not None


def main_line(text: str) -> int:
    """The 0-based line where ``main`` is defined (0 when it is not)."""
    offset = entry.main_offset(text)
    return text.count("\n", 0, offset) if offset is not None else 0


def _read(path: str, texts: Mapping[str, str]) -> str:
    if path in texts:
        return texts[path]
    try:
        return Path(path).read_text(encoding="utf-8", errors="surrogateescape")
    except OSError:
        return ""


def of_file(
    original: str,
    patterns: list[str],
    *,
    translation: str | None = None,
    compile_commands: str | None = None,
    texts: Mapping[str, str] | None = None,
    explicit: bool = False,
) -> Program:
    """The program ``original`` (absolute) belongs to. ``translation`` is its translation file
    (None: the one its patterns name, else its rule translation; with ``explicit``, None means
    the rule translation). ``texts`` are editor buffers, which win over the files on disk."""
    texts = texts or {}
    database = ccdb.find(original, compile_commands)
    entries: dict[str, ccdb.Entry] = {}
    if database is not None and ccdb.entry(original, database) is not None:
        for file in ccdb.files(database):
            found = ccdb.entry(file, database)
            if found is not None and file.lower().endswith(UNIT_SUFFIXES) and Path(file).is_file():
                entries[file] = found
        origin = f"units from {database}"
        candidates = list(entries)
    else:
        folder = Path(original).parent
        candidates = sorted(
            str(p) for p in folder.iterdir() if p.is_file() and p.name.lower().endswith(UNIT_SUFFIXES)
        ) if folder.is_dir() else []
        origin = f"the units of {folder}"
    if original not in candidates:
        candidates.append(original)

    def translation_of(unit: str) -> str | None:
        if unit == original and (translation is not None or explicit):
            return translation
        found = pairs.translation_of(unit, patterns)
        return str(found) if found is not None else None

    translations = {c: translation_of(c) for c in candidates}
    taken = {t for t in translations.values() if t is not None}
    candidates = [c for c in candidates if c not in taken or c == original]
    mains = [c for c in candidates if defines_main(_read(translations[c] or c, texts) if c != original else _read(c, texts))]
    if not mains:
        members, main, origin = [original], None, "one file (no unit defines main)"
    elif original in mains:
        members, main = [original, *(c for c in candidates if c not in mains)], original
    else:
        main = mains[0]
        members = [main, *(c for c in candidates if c not in mains)]
        if len(mains) > 1:
            origin += f"; {len(mains)} units define main, the first is taken"
    # the folder the build wrote its database in (a link to it followed): where its response files are
    build = os.path.dirname(os.path.realpath(database)) if database is not None and entries else None
    units = tuple(
        Unit(m, translations.get(m), tuple(entries[m][1][1:]) if m in entries else (), entries[m][0] if m in entries else None,
             build if m in entries else None)
        for m in members
    )
    root = str(Path(main or original).parent)
    return Program(root, units, origin, main)


def programs_under(
    roots: Iterable[str | Path], patterns: list[str], ignore: list[str], compile_commands: str | None = None
) -> list[Program]:
    """Every program with a CUDA unit under ``roots``, once each."""
    found: dict[tuple[str, ...], Program] = {}
    for pair in pairs.pairs_under(roots, patterns, ignore):
        program = of_file(pair.original, patterns, translation=pair.translation, compile_commands=compile_commands)
        found.setdefault(tuple(u.original for u in program.units), program)
    return list(found.values())


def headers(program: Program, texts: Mapping[str, str], side: Side) -> list[Path]:
    """The local headers the program's units (on ``side``) reach: quoted includes, and angled ones
    found in the build's project ``-I`` folders (:func:`cass_lsp.compile.includes.project_dirs`)."""
    found: dict[Path, None] = {}
    for unit in program.units:
        path = unit.original if side == "original" or unit.translation is None else unit.translation
        include_dirs = [Path(f[2:]) for f in nvcc_flags.split(unit.arguments, unit.directory, unit.project).nvcc if f.startswith("-I")]
        own = includes.project_dirs(include_dirs)
        for header in includes.local_headers(_read(path, texts), Path(path), [Path(path).parent, *include_dirs], own):
            found.setdefault(header)
    return list(found)


def refusals(program: Program, texts: Mapping[str, str], side: Side) -> list[includes.Refusal]:
    """The includes of the program's units (on ``side``) and the headers they reach, and the
    ``-include`` flags of their build, that reach a file no compiler may read
    (:func:`cass_lsp.compile.includes.refusals`)."""
    found: list[includes.Refusal] = []
    for unit in program.units:
        path = unit.original if side == "original" or unit.translation is None else unit.translation
        flags = nvcc_flags.split(unit.arguments, unit.directory).nvcc
        searched = includes.search_dirs(flags)
        found += includes.refusals(
            _read(path, texts), Path(path), [Path(path).parent, *searched], includes.project_dirs(searched),
            includes.forced(flags),
        )  # fmt: skip
    return found


def data_files(program: Program, ignore: Iterable[str] = ()) -> tuple[list[Path], str | None]:
    """The files under the program's folder a run may read (not sources, headers or objects), and a
    note when some were left out: for size, or links that lead outside the folder (:func:`data_source`).
    Linked folders are not walked."""
    root = Path(program.root)
    skipped = set(ignore) | {".git"}
    taken: list[Path] = []
    total = 0
    notes: list[str] = []
    outside: list[str] = []
    sources = set(program.files)
    limit = f"data files beyond {DATA_LIMIT_BYTES // 2**20} MB or {DATA_LIMIT_FILES} files were not copied"
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in skipped and not d.startswith("."))
        for name in sorted(files):
            path = Path(folder, name)
            if path.suffix.lower() in _NOT_DATA or str(path) in sources or name == ccdb.NAME:
                continue
            if data_source(path, root) is None:
                outside.append(str(path.relative_to(root)))
                continue
            try:
                # a file other programs write and remove (a folder such as /tmp) may go meanwhile
                size = path.stat().st_size if path.is_file() else None
            except OSError:
                size = None
            if size is None:
                continue
            if len(taken) >= DATA_LIMIT_FILES:
                # a program at the top of a large tree: every verification would walk all of it
                return taken, _data_note([limit], outside)
            if total + size > DATA_LIMIT_BYTES:
                notes = [limit]
                continue
            taken.append(path)
            total += size
    return taken, _data_note(notes, outside)


def data_source(path: Path, root: Path) -> Path | None:
    """The file a run's copy of the data file ``path`` reads: ``path`` itself, or the target of a
    link (any link along the way) when it lies inside ``root``; None when it leads outside. A
    workspace's link to ``~/.ssh/id_ed25519`` would otherwise hand the key to the confined program
    through its own work dir."""
    # realpath, not Path.resolve: it does not raise on a link loop (which is then no file at all)
    real = Path(os.path.realpath(path))
    return real if real.is_relative_to(os.path.realpath(root)) else None


def _data_note(notes: list[str], outside: list[str]) -> str | None:
    if outside:
        more = len(outside) - _NOTE_NAMES
        shown = ", ".join(outside[:_NOTE_NAMES]) + (f" and {more} more" if more > 0 else "")
        notes = [*notes, f"data links leading outside the program's folder were not copied: {shown}"]
    return "; ".join(notes) or None


@dataclasses.dataclass
class Materialized:
    """A program written into a scratch folder: the files to compile and how to map back."""

    scratch: Scratch
    units: list[Path]
    """The units to compile, in the scratch folder, in the program's order (their paths inert)."""
    include_dirs: dict[str, str]
    """User include folder → its copy in the scratch folder (for -I flags; its path inert)."""

    def mapped_flags(self, flags: Iterable[str]) -> list[str]:
        """``-I`` flags into the copied folders point at the copies first (translated headers win),
        then at the folders themselves (for the headers no include reached: the copies hold only
        those it did)."""
        out = []
        for flag in flags:
            if flag.startswith("-I") and flag[2:] in self.include_dirs:
                out.append("-I" + self.include_dirs[flag[2:]])
            out.append(flag)
        return out


def _include_dirs(program: Program) -> list[str]:
    """The ``-I`` folders of the program's units."""
    found: dict[str, None] = {}
    for unit in program.units:
        for flag in nvcc_flags.split(unit.arguments, unit.directory).nvcc:
            if flag.startswith("-I"):
                found.setdefault(flag[2:])
    return list(found)


def _runtime_placed(
    outputs: list[tuple[str, str, LineMap | None, bool]], place_runtime: RuntimePlacer, include_dirs: list[str]
) -> list[tuple[str, str, LineMap | None, bool]]:
    """The rule-translated units the placement gives the runtime include first, with it (their line
    maps shifted by the inserted line)."""
    fixes = place_runtime({path: text.encode("utf-8", "surrogateescape") for path, text, _, _ in outputs}, include_dirs)
    placed = []
    for path, text, line_map, ruled in outputs:
        fixed = fixes.get(path) if ruled else None
        if fixed is not None:
            before = text.encode("utf-8", "surrogateescape")
            at = next((i for i, (a, b) in enumerate(zip(before, fixed, strict=False)) if a != b), len(before))
            text = fixed.decode("utf-8", "surrogateescape")
            if line_map is not None:
                line_map = line_map.with_line_inserted(before.count(b"\n", 0, at) + 1)
        placed.append((path, text, line_map, ruled))
    return placed


def materialize(
    root: str,
    program: Program,
    texts: Mapping[str, str],
    side: Side,
    *,
    translator: Translator,
    translate_to: HipTarget | None = None,
    prepare: Callable[[str], str] | None = None,
    place_runtime: RuntimePlacer | None = None,
) -> Materialized:
    """Write ``program`` into ``root``, mirroring the user's layout below the folder all its files
    share. ``side`` "translation": each unit's translation file, else (with ``translate_to``) its
    rule translation (by ``translator``), and the rule translation of the headers rule-translated units reach.
    ``place_runtime``: the tree's runtime-include placement, applied to the rule-translated units
    as a tree translation applies it (a host unit that reaches a header using HIP after its own
    macros gets the runtime first, where nvcc's implicit include was).
    ``prepare`` rewrites every written unit and header last (the CPU runtime's launches). Raises
    :class:`cass_lsp.compile.scratch.UnsafeName` for a ``root`` whose own name a shell would act on."""
    require_inert(root)
    unit_paths = [u.original for u in program.units]
    chosen = [u.translation if side == "translation" and u.translation is not None else u.original for u in program.units]
    header_list = headers(program, texts, side)
    everything = [*unit_paths, *chosen, *map(str, header_list)]
    base = Path(os.path.commonpath([os.path.dirname(p) for p in everything]))
    scratch = Scratch(root, base, {})
    notes: list[str] = []
    folders = {str(Path(p).parent) for p in everything}
    # a header that is also a unit takes the unit's name, and a link under its own
    layout = Layout(
        {**{os.path.relpath(h, base): False for h in header_list}, **{os.path.relpath(c, base): True for c in chosen}},
        [os.path.relpath(f, base) for f in folders],
    )
    layout.write(scratch)

    def place(path: str) -> Path:
        target = Path(root, layout.place(os.path.relpath(path, base)))
        target.parent.mkdir(parents=True, exist_ok=True)
        return target

    def write(path: str, text: str, line_map: LineMap | None) -> Path:
        target = place(path)
        target.write_text(prepare(text) if prepare else text, encoding="utf-8", errors="surrogateescape")
        if line_map is not None:
            scratch.line_maps[path] = line_map
        return target

    unsupported = 0
    # (path, text, line map, rule-translated) of each unit, then of each header
    outputs: list[tuple[str, str, LineMap | None, bool]] = []
    for unit, path in zip(program.units, chosen, strict=True):
        text = _read(path, texts)
        if side == "translation" and unit.translation is None and translate_to is not None:
            text_out, line_map, missing = translator(text, translate_to)
            unsupported += missing
            outputs.append((path, text_out, line_map, True))
        else:
            outputs.append((path, text, None, False))
    for header in header_list:
        text = _read(str(header), texts)
        # every local header takes its rule translation, as a unit without a translation file does:
        # a translation file that includes a CUDA header stands for the port of that header (the
        # rule engine leaves HIP text as it is)
        if side == "translation" and translate_to is not None:
            text_out, line_map, missing = translator(text, translate_to)
            unsupported += missing
            outputs.append((str(header), text_out, line_map, False))
        else:
            outputs.append((str(header), text, None, False))
    if place_runtime is not None and side == "translation" and translate_to is not None:
        outputs = _runtime_placed(outputs, place_runtime, _include_dirs(program))
    written = [write(path, text, mapped) for path, text, mapped, _ in outputs[: len(chosen)]]
    for path, text, mapped, _ in outputs[len(chosen) :]:
        write(path, text, mapped)
    if side == "translation" and translate_to is not None and any(u.translation is None for u in program.units):
        notes.append(f"built from the rule translation to HIP (ROCm {translate_to.rocm})")
        if unsupported:
            notes.append(f"{unsupported} construct(s) could not be translated")
    scratch.note = "; ".join(notes) or None
    include_dirs = {folder: os.path.normpath(Path(root, layout.place(os.path.relpath(folder, base)))) for folder in folders}
    return Materialized(scratch, written, include_dirs)
