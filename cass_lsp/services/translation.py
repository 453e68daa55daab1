"""The translation of files and trees, as ``cass-lsp translate`` runs it: each unit read, translated by
the rules (:func:`cass_lsp.translate.jobs.translate_bytes`, where the language server enters the
engine too) with the macros of the project headers it includes and of the tree's other headers
(:func:`project_headers`), and written atomically, in worker processes for a tree; then, over a tree, the HIP
runtime include first in every unit that reaches a header needing it
(:func:`cass_lsp.translate.placement.tree_fixes`, the placement verification's programs take too)."""

from __future__ import annotations

import os
import stat
from typing import TYPE_CHECKING

from cass_lsp.services.outputs import Located, Outcome, Unit, backup, write_atomic

if TYPE_CHECKING:
    from cass_lsp.translate.renames import Renamer
    from cass_lsp.translate.rules import RawFinding, Settings

_PROGRESS_MIN_FILES = 20


def _locate(data: bytes, finding: RawFinding) -> Located:
    start = finding.start
    line_start = data.rfind(b"\n", 0, start) + 1
    return Located(finding.code, finding.severity, finding.message, data.count(b"\n", 0, start) + 1,
                   start - line_start + 1)


_settings: list[Settings] = []  # set once per process (workers get it through the pool initializer)
_tree_headers: list[str] = []  # the tree's headers, whose macros every unit's pre-pass reads
_texts: dict[str, bytes | None] = {}  # header texts read by this process


def _configure(settings: Settings, headers: tuple[str, ...] = ()) -> None:
    _settings[:] = [settings]
    _tree_headers[:] = headers


# A header larger than this is not read for its macros: the tree is the repository's, untrusted.
_HEADER_BYTES = 4 << 20


def _read(path: str) -> bytes | None:
    """A header's text for the pre-pass; None for what no compiler may read (a device, a FIFO, /proc:
    ``includes.not_regular``, links followed), an unreadable file, or one past ``_HEADER_BYTES``."""
    from pathlib import Path

    from cass_lsp.compile import includes

    if path not in _texts:
        text = None
        try:
            if includes.not_regular(Path(path)) is None and os.stat(path).st_size <= _HEADER_BYTES:
                with open(path, "rb") as f:
                    text = f.read(_HEADER_BYTES + 1)
        except OSError:
            pass
        _texts[path] = text if text is not None and len(text) <= _HEADER_BYTES else None
    return _texts[path]


def project_headers(source: str, data: bytes) -> list[bytes]:
    """The texts of the project headers whose macros the pre-pass reads for ``source``: the tree's
    headers (a header may use macros that its includer's other headers define), then those its
    quoted includes reach outside the tree (beside it, then beside each including header). System
    and toolkit headers are never read: only includes found in the project are followed. The tree's
    come first and in one order for every unit, so the pre-pass classifies them once."""
    from pathlib import Path

    from cass_lsp.compile import includes

    text = data.decode("utf-8", "surrogateescape")
    tree = {os.path.realpath(h) for h in _tree_headers}
    reached = [str(p) for p in includes.local_headers(text, Path(source), ()) if str(p) not in tree]
    return [t for t in map(_read, [*_tree_headers, *reached]) if t is not None]


def translate_unit(unit: Unit) -> Outcome:
    """Translate one file with the process's settings (:func:`translate_units` sets them) and write
    its output (atomically; an in-place rewrite keeps the first original as a backup)."""
    from cass_lsp.translate import codes
    from cass_lsp.translate.jobs import translate_bytes
    from cass_lsp.translate.rules import apply

    try:
        st = os.stat(unit.source)
        if not stat.S_ISREG(st.st_mode):  # a FIFO or a device in the tree would block or never end
            return Outcome(unit, 0, {}, [], None, f"{unit.source}: not a regular file; left out")
        with open(unit.source, "rb") as f:
            data = f.read()
    except OSError as e:
        return Outcome(unit, 0, {}, [], None, f"{unit.source}: {e.strerror or e}")
    result = translate_bytes(_settings[0], data, headers=project_headers(unit.source, data))
    output = apply(data, result.edits)
    lines = data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1)
    found = [_locate(data, f) for f in result.findings]
    target = unit.target
    if target is None:
        return Outcome(unit, lines, result.stats, found, output.decode("utf-8", "surrogateescape"), None)
    if not unit.in_place and any(f.code == codes.NOT_CODE for f in result.findings):
        # prose named .cu (a licence) is copied under its own name, not renamed as a translated unit
        target = os.path.join(os.path.dirname(target), os.path.basename(unit.source))
        unit = unit._replace(target=target)
    try:
        if unit.in_place:
            if result.edits:
                backup(unit.source)
                write_atomic(target, output, st.st_mode & 0o7777)
        else:
            write_atomic(target, output, None)
    except OSError as e:
        return Outcome(unit, lines, result.stats, found, None, f"{target}: {e.strerror or e}")
    return Outcome(unit, lines, result.stats, found, None, None)


def place_runtime_includes(outcomes: list[Outcome], roots: list[str]) -> None:
    """nvcc includes cuda_runtime.h first in every translation unit: over a tree, the HIP runtime
    include goes first in each unit that reaches a header needing it (placement.tree_fixes)."""
    from cass_lsp.translate import codes, placement

    written = {o.unit.source: o.unit for o in outcomes if o.error is None and o.unit.target is not None
               and not any(f.code == codes.NOT_CODE for f in o.findings)}  # prose named .cu stays as it is
    translations: dict[str, bytes] = {}
    for source, unit in written.items():
        with open(unit.target or source, "rb") as f:
            translations[source] = f.read()
    for source, data in placement.tree_fixes(translations, roots).items():
        unit = written[source]
        if unit.in_place:
            backup(source)
        write_atomic(unit.target or source, data, os.stat(source).st_mode & 0o7777 if unit.in_place else None)


def renamer(outcomes: list[Outcome], roots: list[str], reverse: bool) -> Renamer:
    """The files a tree translation renamed (its sources whose translation got another suffix)."""
    from functools import partial

    from cass_lsp.translate.naming import translated_name
    from cass_lsp.translate.renames import Renamer

    renamed = [o.unit.source for o in outcomes if o.error is None and o.unit.target is not None
               and not o.unit.in_place and os.path.basename(o.unit.target) != os.path.basename(o.unit.source)]
    return Renamer(renamed, partial(translated_name, reverse=reverse, beside_original=False), roots)


def follow_renames(outcomes: list[Outcome], renames: Renamer) -> None:
    """Each written translation's includes of renamed files name their translations (counted as
    ``includes`` in its outcome's stats)."""
    if not renames.renamed:
        return
    for outcome in outcomes:
        unit = outcome.unit
        if outcome.error is not None or unit.target is None or unit.in_place:
            continue
        with open(unit.target, "rb") as f:
            data, changed = renames.includes(f.read(), unit.source)
        if changed:
            write_atomic(unit.target, data, None)
            outcome.stats["includes"] = outcome.stats.get("includes", 0) + changed


def translate_units(units: list[Unit], settings: Settings, jobs: int) -> list[Outcome]:
    """Translate ``units`` (in ``jobs`` worker processes for a tree), with progress on a terminal for
    many files."""
    from cass_lsp.core.filekinds import CUDA_HEADER_SUFFIX, HEADER_SUFFIXES

    headers = tuple(u.source for u in units if u.source.lower().endswith((CUDA_HEADER_SUFFIX, *HEADER_SUFFIXES)))
    _configure(settings, headers)
    from cass_lsp.core.progress import SILENT, TerminalSink

    sink = TerminalSink() if len(units) >= _PROGRESS_MIN_FILES else SILENT
    progress = sink.begin(f"translating {len(units)} files", None)
    outcomes: list[Outcome] = []

    def done(outcome: Outcome) -> None:
        outcomes.append(outcome)
        progress.report(f"{len(outcomes)}/{len(units)} {outcome.unit.source}", 100 * len(outcomes) // len(units))

    if jobs > 1 and len(units) > 1:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        from cass_lsp.translate import rules

        rules.warm_up(_settings[0].reverse)

        context = multiprocessing.get_context("fork")
        chunk = max(1, len(units) // (jobs * 8))
        with ProcessPoolExecutor(jobs, mp_context=context, initializer=_configure,
                                 initargs=(_settings[0], headers)) as pool:
            for outcome in pool.map(translate_unit, units, chunksize=chunk):
                done(outcome)
    else:
        for unit in units:
            done(translate_unit(unit))
    progress.end()
    return outcomes
