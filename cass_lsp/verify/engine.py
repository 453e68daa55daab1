"""One verification of a pair: which stages it has, their keys, and the verdict over their results.

The server submits each :class:`Stage` to the job layer (its own key, slot, cache and progress);
the CLI runs them one after another with :func:`verify`. Both read the same plan and the same
verdict rules:

- ``failed``: a compiler rejected the original or the translation, or the run disagreed;
- ``passed``: every compile passed, and the run agreed or was not asked for (the summary says which);
- ``unverified``: some stage could not be tried (a missing tool, a runner that cannot run the code,
  a cancelled job), and nothing failed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import msgspec

from cass_lsp.toolchains import ToolchainMissing
from cass_lsp.verify import run as run_stage
from cass_lsp.verify import stages
from cass_lsp.verify.pairs import Pair
from cass_lsp.verify.runners import CannotRun
from cass_lsp.verify.stages import Inputs, StageResult

if TYPE_CHECKING:
    from cass_lsp.jobs.cache import ResultCache
    from cass_lsp.jobs.cancel import CancelToken
    from cass_lsp.jobs.progress import Progress
    from cass_lsp.jobs.resolved import ResolvedSettings

CACHE_NAMESPACE = "verify"
Verdict = Literal["passed", "failed", "unverified"]


class Report(msgspec.Struct, frozen=True, rename="camel"):
    pair: Pair
    verdict: Verdict
    summary: str
    stages: list[StageResult]


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


def read_inputs(pair: Pair, buffers: Mapping[str, str]) -> Inputs:
    """The pair's texts: an open editor buffer wins over the file on disk. Raises OSError."""

    def text_of(path: str) -> str:
        if path in buffers:
            return buffers[path]
        return Path(path).read_text(encoding="utf-8", errors="surrogateescape")

    translation = text_of(pair.translation) if pair.translation is not None else None
    return Inputs(pair, text_of(pair.original), translation)


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
            return stages.run_compile(compile_plan, timeout=timeout, token=token, nice=nice)

        title = f"verify: compiling {Path(compile_plan.file).name} for {target}"
        planned.append(Stage(name, target, compile_plan.key, work, title=title))
    if run:
        planned.append(_run_stage(inputs, resolved))
    return planned


def _run_stage(inputs: Inputs, resolved: ResolvedSettings) -> Stage:
    runner = run_stage.chosen_runner(resolved.verification)
    if runner is None:
        reason = "no runner can run programs here (no GPU, no C++ compiler for the CPU runtime)"
        return _ready(StageResult("run", None, "unavailable", reason, cacheable=False))
    try:
        run_plan = run_stage.plan_run(inputs, resolved, runner)
    except (CannotRun, ToolchainMissing, ValueError) as error:
        return _ready(stages.unavailable("run", runner, error))

    def work(token: CancelToken | None) -> StageResult:
        return run_stage.run_programs(run_plan, token=token)

    title = f"verify: running {inputs.pair.describe()} on {runner}"
    return Stage("run", runner, run_plan.key, work, title=title)


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


def verify(
    inputs: Inputs,
    resolved: ResolvedSettings,
    *,
    trusted: bool = True,
    cache: ResultCache | None = None,
    token: CancelToken | None = None,
    progress: Progress | None = None,
) -> Report:
    """Every stage in order (the run, when allowed, only after every compile passed): the CLI's way."""
    not_run = run_stage.run_refusal(resolved.verification, trusted)
    planned = plan(inputs, resolved, run=not_run is None)
    results: list[StageResult] = []
    for index, stage in enumerate(planned):
        if stage.name == "run" and any(r.outcome != "passed" for r in results):
            results.append(StageResult("run", stage.target, "skipped", "not run: a compile stage did not pass"))
            continue
        if progress is not None:
            progress.report(stage.title or stage.name, percentage=100 * index // len(planned))
        results.append(run_one(stage, cache=cache, token=token))
    return report(inputs.pair, results, not_run=not_run)


def report(pair: Pair, results: list[StageResult], *, not_run: str | None) -> Report:
    """The verdict over ``results``; ``not_run`` says why there is no run stage, if there is none."""
    verdict, summary = judge(pair, results, not_run=not_run)
    return Report(pair, verdict, summary, results)


def judge(pair: Pair, results: list[StageResult], *, not_run: str | None) -> tuple[Verdict, str]:
    failed = [r for r in results if r.outcome == "failed"]
    if failed:
        return "failed", f"{pair.describe()}: {failed[0].message}"
    untried = [r for r in results if r.outcome in ("unavailable", "cancelled", "skipped")]
    if untried:
        return "unverified", f"{pair.describe()}: could not verify: {untried[0].label}: {untried[0].message}"
    compiled = ", ".join(r.target or "" for r in results if r.name == "translation")
    ran = next((r for r in results if r.name == "run"), None)
    if ran is not None:
        return "passed", f"{pair.describe()}: compiles ({compiled}) and runs the same ({ran.target})"
    why = f": {not_run}" if not_run else ""
    return "passed", f"{pair.describe()}: compiles with nvcc and clang-19 ({compiled}); not run{why}"
