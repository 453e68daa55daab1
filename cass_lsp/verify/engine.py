"""One verification of a pair: which stages it has, their keys, and the verdict over their results.

Both the server and the CLI run a plan's stages with :func:`run_stages` (through
:func:`cass_lsp.services.verification.verify`), which holds the one order (the compiles together,
the run only after every compile passed) and takes a ``submit``: the server submits each
:class:`Stage` to the job layer (its own key, slot, cache and progress), the CLI runs it in place
(:func:`run_one`). Both read the same plan and the same verdict rules:

- ``failed``: clang rejected the translation, or the run disagreed, while the original compiled
  (and, for a run, ran cleanly: :mod:`.run`);
- ``passed``: every compile passed, and the run agreed or was not asked for (the summary says which);
  a program the settings ask to run is never ``passed`` without a run that agreed;
- ``unverified``: the original itself does not compile (so a failing translation proves nothing),
  or some stage could not be tried (a missing tool, a runner that cannot run the code, an original
  that does not run cleanly, a cancelled job, a run asked for that could not start: no ``main``,
  an untrusted workspace); the summary says why.

A verification covers the *program* of the file the user touched (:mod:`cass_lsp.compile.program`): all its
units, headers and build flags.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import msgspec

from cass_lsp.compile import program as program_module
from cass_lsp.compile.program import Program
from cass_lsp.core.pairs import Pair
from cass_lsp.toolchains import ToolchainMissing
from cass_lsp.verify import run as run_stage
from cass_lsp.verify import stages
from cass_lsp.verify.run import NotRun
from cass_lsp.verify.runners import CannotRun
from cass_lsp.verify.stages import Inputs, StageResult

if TYPE_CHECKING:
    from cass_lsp.core.cache import ResultCache
    from cass_lsp.core.cancel import CancelToken
    from cass_lsp.services.settings import ResolvedSettings

CACHE_NAMESPACE = "verify"
Verdict = Literal["passed", "failed", "unverified"]


class Report(msgspec.Struct, frozen=True, rename="camel"):
    pair: Pair
    verdict: Verdict
    summary: str
    stages: list[StageResult]
    program: Program | None = None


@dataclasses.dataclass(frozen=True)
class Stage:
    """A stage ready to run: ``work(token)`` gives its result; ``key`` addresses it in the cache.
    A stage that cannot be tried has its result already (``ready``) and no work."""

    name: Literal["original", "translation", "run"]
    target: str | None
    key: str
    work: Callable[[CancelToken | None], StageResult] | None
    ready: StageResult | None = None
    title: str = ""


def read_inputs(pair: Pair, buffers: Mapping[str, str], resolved: ResolvedSettings, *, explicit: bool = False) -> Inputs:
    """The pair's program and the texts of its files: an open editor buffer wins over the file on
    disk. ``explicit``: the pair was given as it is (its translation None means the rule
    translation, whatever file the patterns name). Raises OSError."""
    settings = resolved.verification
    program = program_module.of_file(
        pair.original,
        list(settings.translation_patterns),
        translation=pair.translation,
        compile_commands=resolved.compile_commands,
        texts=buffers,
        explicit=explicit,
    )

    def text_of(path: str) -> str:
        if path in buffers:
            return buffers[path]
        return Path(path).read_text(encoding="utf-8", errors="surrogateescape")

    return Inputs(pair, program, {path: text_of(path) for path in program.files})


def unreadable(pair: Pair, error: OSError) -> Report:
    message = f"cannot read {error.filename or pair.original}: {error.strerror or error}"
    return Report(pair, "unverified", f"{pair.describe()}: could not verify: {message}", [])


def amd_arches(resolved: ResolvedSettings) -> list[str]:
    return list(resolved.verification.arches) or [resolved.arch]


def plan(inputs: Inputs, resolved: ResolvedSettings, *, run: bool, nice: int = 0) -> list[Stage]:
    """The compile stages (original, then the translation per AMD target) and, with ``run``, the
    run stage. ``nice`` lowers the compilers' priority (the server's background work)."""
    settings = resolved.verification
    timeout = settings.compile_timeout_seconds
    planned: list[Stage] = []
    makers: list[tuple[Literal["original", "translation"], str, Callable[[], stages.CompilePlan]]] = [
        ("original", settings.nvidia_arch, lambda: stages.plan_original(inputs, resolved))
    ]
    for arch in amd_arches(resolved):
        makers.append(("translation", arch, lambda arch=arch: stages.plan_translation(inputs, resolved, arch)))  # type: ignore[misc]
    for name, target, make in makers:
        try:
            compile_plan = make()
        except (ToolchainMissing, ValueError) as error:
            planned.append(_ready(stages.unavailable(name, target, error)))
            continue

        def work(token: CancelToken | None, compile_plan: stages.CompilePlan = compile_plan) -> StageResult:
            return stages.run_compile(
                compile_plan, timeout=timeout, token=token, nice=nice, limits=resolved.compiler_limits
            )

        title = f"verify: compiling {Path(compile_plan.file).name} for {target}"
        planned.append(Stage(name, target, compile_plan.key, work, title=title))
    if run:
        planned.extend(_run_stages(inputs, resolved))
    return planned


def _run_stages(inputs: Inputs, resolved: ResolvedSettings) -> list[Stage]:
    runner = run_stage.chosen_runner(resolved.verification)
    if runner is None:
        reason = "no runner can run programs here (no GPU, no C++ compiler for the CPU runtime)"
        return [_ready(StageResult("run", None, "unavailable", reason, cacheable=False))]
    try:
        run_plans = run_stage.plan_runs(inputs, resolved, runner)
    except (CannotRun, ToolchainMissing, ValueError) as error:
        return [_ready(stages.unavailable("run", runner, error))]
    planned = []
    for run_plan in run_plans:

        def work(token: CancelToken | None, run_plan: run_stage.RunPlan = run_plan) -> StageResult:
            return run_stage.run_programs(run_plan, token=token)

        title = f"verify: running {inputs.program.describe()} on {run_plan.target}"
        planned.append(Stage("run", run_plan.target, run_plan.key, work, title=title))
    return planned


def _ready(result: StageResult) -> Stage:
    return Stage(result.name, result.target, "", None, ready=result)


def register(cache: ResultCache) -> None:
    cache.register(CACHE_NAMESPACE, StageResult)


def run_one(stage: Stage, *, cache: ResultCache | None, token: CancelToken | None) -> StageResult:
    """A stage's result: ready, cached, or computed now (and cached when it says something about
    the inputs rather than this moment)."""
    if stage.ready is not None:
        return stage.ready
    assert stage.work is not None
    if cache is not None:
        hit = cache.get(CACHE_NAMESPACE, stage.key)
        if isinstance(hit, StageResult):
            return msgspec.structs.replace(hit, cached=True)
    result = stage.work(token)
    if cache is not None and result.cacheable and result.outcome in ("passed", "failed"):
        cache.put(CACHE_NAMESPACE, stage.key, result)
    return result


async def run_stages(planned: list[Stage], submit: Callable[[Stage], Awaitable[StageResult]]) -> list[StageResult]:
    """The results of ``planned``, each stage through ``submit``: the compile stages together, then each
    run stage only when every compile passed (else a "skipped" result), in the plan's order. The CPU
    runner builds both sides with the host compiler, so a compile that could not be tried (a tool
    or a library's headers missing here) does not stop its run: what the run shows still holds."""
    compiles = [stage for stage in planned if stage.name != "run"]
    results = list(await asyncio.gather(*(submit(stage) for stage in compiles)))
    compiled = all(r.outcome == "passed" for r in results)
    untried_only = all(r.outcome in ("passed", "unavailable") for r in results)
    for stage in planned:
        if stage.name != "run":
            continue
        if compiled or (untried_only and stage.target == "cpu"):
            results.append(await submit(stage))
        else:
            results.append(StageResult("run", stage.target, "skipped", "not run: a compile stage did not pass"))
    return results


def report(inputs: Inputs, results: list[StageResult], *, not_run: NotRun | None) -> Report:
    """The verdict over ``results``; ``not_run`` says why there is no run stage, if there is none."""
    verdict, summary = judge(inputs.program.describe(), results, not_run=not_run)
    return Report(inputs.pair, verdict, summary, results, inputs.program)


def judge(name: str, results: list[StageResult], *, not_run: NotRun | None) -> tuple[Verdict, str]:
    """The verdict over the stages of the program called ``name``, and its one-line summary.
    ``not_run``: why no run stage was planned (None: one was)."""
    original = next((r for r in results if r.name == "original"), None)
    if original is not None and original.outcome == "failed":
        # nvcc rejects the original (a build flag missing?): a translation error proves nothing
        return "unverified", f"{name}: could not verify: the original does not compile: {original.message}"
    failed = [r for r in results if r.outcome == "failed"]
    if failed:
        return "failed", f"{name}: {failed[0].message}"
    untried = [r for r in results if r.outcome in ("unavailable", "cancelled", "skipped")]
    if untried:
        return "unverified", f"{name}: could not verify: {untried[0].label}: {untried[0].message}"
    compiled = ", ".join(r.target or "" for r in results if r.name == "translation")
    ran = [r for r in results if r.name == "run"]
    if ran:
        return "passed", f"{name}: compiles ({compiled}) and runs the same ({', '.join(r.target or '' for r in ran)})"
    clang = next((r.tool for r in results if r.name == "translation" and r.tool), "clang")
    compiles = f"compiles with nvcc and {clang} ({compiled})"
    if not_run is None or not_run.asked:
        # asked to run, and it did not: what was asked is unknown, whatever the compilers said
        why = not_run.reason if not_run is not None else "no run stage was planned"
        return "unverified", f"{name}: could not verify: it {compiles} but was asked to run and was not run: {why}"
    return "passed", f"{name}: {compiles}; not run: {not_run.reason}"
