"""Verification, for the CLI and the server: a program's stages run by one stage runner
(:func:`verify`) that takes a ``submit``: :func:`in_place` for ``cass-lsp verify`` (each stage
computed in this thread), :func:`scheduled` for the server (each stage a job of its scheduler:
shared, cached, superseded per pair and stage, with work-done progress). For the CLI also which
pairs a path names, each program verified once, and a project's checks as its own build defines
them (:mod:`cass_lsp.verify.project`); for the server the report's line alignment as a job.
"""

from __future__ import annotations

import asyncio
import os
import tempfile
from collections.abc import Awaitable, Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeVar

import msgspec

from cass_lsp.compile.scratch import HipTarget
from cass_lsp.core import jobs, pairs
from cass_lsp.core.cache import ResultCache
from cass_lsp.core.cancel import CancelToken
from cass_lsp.core.progress import Progress
from cass_lsp.core.scheduler import Scheduler
from cass_lsp.services.settings import ResolvedSettings
from cass_lsp.verify import engine, project
from cass_lsp.verify import run as run_stage
from cass_lsp.verify.alignment import LineAlignment
from cass_lsp.verify.discovery import System
from cass_lsp.verify.engine import Report, Stage
from cass_lsp.verify.jobs import ALIGN, VERIFICATION_FIELDS, VERIFY_COMPILE, VERIFY_RUN
from cass_lsp.verify.stages import Inputs, StageResult

T = TypeVar("T")

Begin = Callable[[str], Progress]
"""Starts the progress of one verification, titled."""
Submit = Callable[[Stage], Awaitable[StageResult]]
"""Runs one stage of a plan and gives its result."""

read = engine.read_inputs
unreadable = engine.unreadable


def broken(pair: pairs.Pair, error: Exception) -> Report:
    """The report of a verification that raised (a defect, not the user's code): said as such."""
    return Report(pair, "unverified", f"{pair.describe()}: could not verify: {type(error).__name__}: {error}", [])


def settings_digest(resolved: ResolvedSettings) -> str:
    """A digest of every setting a verification reads: another one makes earlier verdicts stale."""
    return resolved.digest(VERIFICATION_FIELDS)


def in_place(cache: ResultCache | None) -> Submit:
    """Each stage computed in this thread, through ``cache`` when given: the CLI's way."""
    if cache is not None:
        engine.register(cache)

    async def submit(stage: Stage) -> StageResult:
        return engine.run_one(stage, cache=cache, token=None)

    return submit


def scheduled(scheduler: Scheduler, owner: str) -> Submit:
    """Each stage a job of ``scheduler`` (kind ``verify-run`` or ``verify-compile``, slot: ``owner``,
    the stage and its target), through the scheduler's cache: the server's way."""
    cache = scheduler.cache
    if cache is not None:
        engine.register(cache)

    async def submit(stage: Stage) -> StageResult:
        if stage.ready is not None:
            return stage.ready
        kind = VERIFY_RUN if stage.name == "run" else VERIFY_COMPILE

        def work(token: CancelToken, progress: Progress) -> StageResult:
            return engine.run_one(stage, cache=cache, token=None)

        return await scheduler.run(kind, (owner, stage.name, stage.target), stage.key, work, title=stage.title)

    return submit


async def verify(
    inputs: Inputs,
    resolved: ResolvedSettings,
    submit: Submit,
    *,
    trusted: bool = True,
    untrusted_because: str | None = None,
    nice: int = 0,
    progress: Progress | None = None,
) -> Report:
    """The program's report: its stages planned (off the caller's thread: planning translates and
    reads headers), run through ``submit`` by :func:`cass_lsp.verify.engine.run_stages` (the compiles
    together, the run after them), and judged. ``trusted``: the run stage may start (the editor's
    workspace trust; ``untrusted_because`` says why not); ``nice`` lowers the compilers' priority;
    ``progress`` is told each stage as it starts. Raises Cancelled when a job was superseded."""
    reason = {} if untrusted_because is None else {"untrusted_because": untrusted_because}
    not_run = run_stage.run_refusal(resolved.verification, trusted, inputs, **reason)
    planned = await asyncio.to_thread(engine.plan, inputs, resolved, run=not_run is None, nice=nice)
    position = {id(stage): index for index, stage in enumerate(planned)}

    async def told(stage: Stage) -> StageResult:
        if progress is not None:
            progress.report(stage.title or stage.name, percentage=100 * position[id(stage)] // len(planned))
        return await submit(stage)

    results = await engine.run_stages(planned, told)
    return engine.report(inputs, results, not_run=not_run)


def verify_in_place(
    inputs: Inputs, resolved: ResolvedSettings, cache: ResultCache | None = None, progress: Progress | None = None
) -> Report:
    """:func:`verify` with every stage in place, from synchronous code (the CLI)."""
    return asyncio.run(verify(inputs, resolved, in_place(cache), progress=progress))


async def aligned(
    scheduler: Scheduler, owner: str, report: Report, resolved: ResolvedSettings, work: Callable[[], T]
) -> T:
    """``work`` (what the report says on the user's lines: it aligns each translation file with the
    original's rule translation, a translation and a diff) as the ``verify-align`` job of ``owner``,
    off the caller's loop, keyed by the report and the settings."""
    digest = jobs.text_digest(msgspec.json.encode(report).decode())
    key = jobs.key(ALIGN.name, digest, settings_digest(resolved))

    def job(token: Any, progress: Progress) -> T:
        return work()

    return await scheduler.run(ALIGN, owner, key, job)


class OriginalLines:
    """Where a line of a translation file came from in its original: the file aligned with the
    original's rule translation for the stage's target, once per file and target."""

    def __init__(self, inputs: Inputs, resolved: ResolvedSettings) -> None:
        self._inputs = inputs
        self._resolved = resolved
        self._alignments: dict[tuple[str, str | None], LineAlignment] = {}

    def line(self, original: str, translation: str, target: str | None, line: int) -> int | None:
        """The 1-based line of ``original`` that 1-based ``line`` of ``translation`` came from."""
        key = (translation, target)
        if key not in self._alignments:
            resolved = self._resolved
            hip = HipTarget(target or resolved.arch, resolved.rocm, resolved.options)
            texts = self._inputs.texts
            self._alignments[key] = LineAlignment(texts[original], texts[translation], hip)
        return self._alignments[key].original_line(line)


def _absolute(path: Path) -> str:
    return os.path.normpath(path.absolute())


def pairs_of(path_text: str, against: str | None, patterns: list[str], resolved: ResolvedSettings) -> list[tuple[pairs.Pair, bool]]:
    """The pairs to verify, each with whether it was given explicitly (``against``); ValueError
    with the reason when there are none."""
    path = Path(path_text)
    if not path.exists():
        raise ValueError(f"{path}: no such file or folder")
    if against:
        other = Path(against)
        if not other.is_file():
            raise ValueError(f"{other}: no such file")
        originals = [p for p in (path, other) if pairs.is_original(p)]
        if len(originals) != 1:
            raise ValueError("give one .cu original and one HIP translation (PATH and --against)")
        original = originals[0]
        translation = other if original == path else path
        return [(pairs.Pair(_absolute(original), _absolute(translation)), True)]
    if path.is_dir():
        found = pairs.pairs_under([path], patterns, resolved.verification.ignore)
        if not found:
            raise ValueError(f"{path}: no .cu files under it")
        return [(pair, False) for pair in found]
    pair = pairs.pair_for(path, patterns)
    if pair is None:
        raise ValueError(f"{path}: not a .cu file, and no .cu original names it through {patterns}")
    return [(pair, False)]


def verify_pairs(
    found: Sequence[tuple[pairs.Pair, bool]], resolved: ResolvedSettings, cache: ResultCache | None, begin: Begin
) -> Iterator[Report]:
    """The report of each program the pairs belong to, once per program, as each is done."""
    seen: set[tuple[str, ...]] = set()
    for index, (pair, explicit) in enumerate(found):
        progress = begin(f"[{index + 1}/{len(found)}] {pair.describe()}")
        try:
            inputs = engine.read_inputs(pair, {}, resolved, explicit=explicit)
            identity = tuple(u.original for u in inputs.program.units)
            if identity in seen:
                continue  # another file of a program verified already
            seen.add(identity)
            report = verify_in_place(inputs, resolved, cache, progress)
        except OSError as error:
            report = engine.unreadable(pair, error)
        finally:
            progress.end()
        yield report


def verify_project(
    root: Path,
    translation_root: Path | None,
    cache: ResultCache | None,
    begin: Begin,
    resolved_for: Callable[[project.Check], ResolvedSettings],
    *,
    run: str | None,
    system: System | None,
    configure_args: tuple[str, ...],
    make_args: tuple[str, ...],
) -> Iterator[Report]:
    """The reports of a project's verification: the translated build's, when it is built, then one
    per check (a test of the build, or the command ``run`` names), each with its own settings
    (``resolved_for``: its arguments). Raises BuildError, ToolchainMissing or ValueError when the
    original's build cannot be read."""
    with tempfile.TemporaryDirectory(prefix="cass-project-") as folder:
        scratch = Path(folder)
        found = project.read(
            root, run=run, system=system, configure_args=configure_args, make_args=make_args,
            translation_root=translation_root, scratch=scratch,
        )  # fmt: skip
        build = project.translated_build(found, scratch)
        if build is not None:
            yield build

        def verify_one(check: project.Check, inputs: Inputs) -> Report:
            progress = begin(f"{check.name}: {inputs.program.describe()}")
            try:
                return verify_in_place(inputs, resolved_for(check), cache, progress)
            finally:
                progress.end()

        yield from project.verify_checks(found, verify_one, engine.unreadable)
