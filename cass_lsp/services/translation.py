"""The translation of files and trees, as ``cass-lsp translate`` runs it: each unit read, translated by
the rules (:func:`cass_lsp.translate.jobs.translate_bytes`, where the language server enters the
engine too) and written atomically, in worker processes for a tree; then, over a tree, the HIP
runtime include first in every unit that reaches a header needing it
(:func:`cass_lsp.translate.placement.tree_fixes`, the placement verification's programs take too)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from cass_lsp.services.outputs import Located, Outcome, Unit, backup, write_atomic

if TYPE_CHECKING:
    from cass_lsp.translate.rules import RawFinding, Settings

_PROGRESS_MIN_FILES = 20


def _locate(data: bytes, finding: RawFinding) -> Located:
    start = finding.start
    line_start = data.rfind(b"\n", 0, start) + 1
    return Located(finding.code, finding.severity, finding.message, data.count(b"\n", 0, start) + 1,
                   start - line_start + 1)


_settings: list[Settings] = []  # set once per process (workers get it through the pool initializer)


def _configure(settings: Settings) -> None:
    _settings[:] = [settings]


def translate_unit(unit: Unit) -> Outcome:
    """Translate one file with the process's settings (:func:`translate_units` sets them) and write
    its output (atomically; an in-place rewrite keeps the first original as a backup)."""
    from cass_lsp.translate import codes
    from cass_lsp.translate.jobs import translate_bytes
    from cass_lsp.translate.rules import apply

    try:
        with open(unit.source, "rb") as f:
            data = f.read()
        st = os.stat(unit.source)
    except OSError as e:
        return Outcome(unit, 0, {}, [], None, f"{unit.source}: {e.strerror or e}")
    result = translate_bytes(_settings[0], data)
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


def translate_units(units: list[Unit], settings: Settings, jobs: int) -> list[Outcome]:
    """Translate ``units`` (in ``jobs`` worker processes for a tree), with progress on a terminal for
    many files."""
    _configure(settings)
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
        with ProcessPoolExecutor(jobs, mp_context=context, initializer=_configure, initargs=(_settings[0],)) as pool:
            for outcome in pool.map(translate_unit, units, chunksize=chunk):
                done(outcome)
    else:
        for unit in units:
            done(translate_unit(unit))
    progress.end()
    return outcomes
