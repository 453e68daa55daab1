"""Stage (c): build the original and the translation for a runner, run both, compare.

Only ever started when ``cass.verification.run`` is on and the workspace is trusted (the caller's
decision: :func:`run_refusal`). Each program is built and run in its own fresh directory through
:mod:`.sandbox` (process group, rlimits, scrubbed environment, no network where the OS allows).
A run is "passed" only when both programs ran to completion and their exit codes and output agree;
when the original itself cannot be built or run, the translation is not judged ("unavailable").
"""

from __future__ import annotations

import dataclasses
import re
import time
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from cass_lsp.asm.scratch import HipTarget, project_inputs, translated
from cass_lsp.cpu.outcome import runtime_stop
from cass_lsp.toolchains import ToolchainMissing
from cass_lsp.translate.fingerprint import fingerprint
from cass_lsp.verify import runners, sandbox
from cass_lsp.verify.compare import compare, ignore_patterns
from cass_lsp.verify.runners import Builder, CannotRun, Program, RunnerName
from cass_lsp.verify.stages import SCHEMA, Inputs, Outcome, StageResult, digest

if TYPE_CHECKING:
    from cass_lsp.config import VerificationSettings
    from cass_lsp.jobs.cancel import CancelToken
    from cass_lsp.jobs.resolved import ResolvedSettings

_LOG_TAIL = 4000


@dataclasses.dataclass(frozen=True)
class RunPlan:
    runner: RunnerName
    original: Program
    translation: Program
    original_builder: Builder
    translation_builder: Builder
    settings: VerificationSettings
    ignore: list[re.Pattern[str]]
    key: str


def run_refusal(settings: VerificationSettings, trusted: bool) -> str | None:
    """Why the run stage must not start, or None when it may."""
    if not settings.run:
        return "running is off (cass.verification.run)"
    if not trusted:
        return "running is refused: the editor marks this workspace untrusted"
    if settings.runner == "none":
        return "no runner (cass.verification.runner is \"none\")"
    return None


def chosen_runner(settings: VerificationSettings) -> RunnerName | None:
    if settings.runner == "none":
        return None
    if settings.runner != "auto":
        return settings.runner
    detected = runners.detect()
    return None if detected == "none" else detected


def plan_run(inputs: Inputs, resolved: ResolvedSettings, runner: RunnerName) -> RunPlan:
    """Resolve both programs and builders. Raises CannotRun, ToolchainMissing or ValueError."""
    settings = resolved.verification
    runners.require(runner)
    arch = (settings.arches or [resolved.arch])[0]
    original_path = Path(inputs.pair.original)
    original_flags, original_headers = project_inputs(inputs.original_text, original_path, resolved.compile_commands)
    if inputs.translation_text is None:
        text, _, _ = translated(inputs.original_text, HipTarget(arch, resolved.rocm, resolved.options))
        translation_path, translation_headers = original_path, original_headers
        translation_flags = original_flags
    else:
        assert inputs.pair.translation is not None
        text, translation_path = inputs.translation_text, Path(inputs.pair.translation)
        translation_flags, translation_headers = project_inputs(text, translation_path, resolved.compile_commands)
    original_builder, translation_builder = runners.builders(
        runner,
        nvidia_arch=settings.nvidia_arch,
        amd_arch=arch,
        wave_size=resolved.wave_size,
        builds_for=settings.command_builds_for,
    )
    original = Program(inputs.original_text, original_path, "cuda", tuple(original_flags))
    translation = Program(text, translation_path, "hip", tuple(translation_flags))
    key = digest(
        SCHEMA,
        "run",
        runner,
        original_builder.identity(),
        translation_builder.identity(),
        [digest(p.text, str(p.path), p.flags) for p in (original, translation)],
        [digest(*(h.read_bytes() if h.is_file() else b"" for h in headers)) for headers in (original_headers, translation_headers)],
        fingerprint() if inputs.translation_text is None else "",
        msgspec.to_builtins(settings),
    )
    ignore = ignore_patterns(settings.compare_ignore)
    return RunPlan(runner, original, translation, original_builder, translation_builder, settings, ignore, key)


def run_programs(plan: RunPlan, *, token: CancelToken | None = None) -> StageResult:
    """Build and run both programs, then compare (never raises for the user's code)."""
    started = time.monotonic()
    cancel = token.event if token is not None else None
    settings = plan.settings
    limits = _limits(settings, plan.runner)
    target = plan.runner
    outcomes = []
    for side, program, builder in (
        ("original", plan.original, plan.original_builder),
        ("translation", plan.translation, plan.translation_builder),
    ):
        with sandbox.fresh_workdir() as work:
            try:
                built = builder.build(program, work, timeout=settings.compile_timeout_seconds, cancel=cancel)
            except (CannotRun, ToolchainMissing, ValueError) as error:
                reason = f"{error.what} not found; {error.hint}" if isinstance(error, ToolchainMissing) else str(error)
                return _result(target, "unavailable", f"{side}: {reason}", started, cacheable=False)
            if cancel is not None and cancel.is_set():
                return _result(target, "cancelled", "cancelled", started, cacheable=False)
            if not built.ok:
                return _build_failed(side, builder, built.log, built.command, target, started)
            assert built.exe is not None
            argv = [str(built.exe), *settings.args]
            if plan.runner == "command":
                try:
                    argv = [*runners.command_argv(settings.command, built.exe, work), *settings.args]
                except CannotRun as error:
                    return _result(target, "unavailable", str(error), started, cacheable=False)
            stdin = settings.stdin.encode() if settings.stdin is not None else None
            outcome = sandbox.run(
                argv,
                workdir=work,
                limits=limits,
                stdin=stdin,
                cancel=cancel,
                network=plan.runner == "command",
            )
        if outcome.cancelled:
            return _result(target, "cancelled", "cancelled", started, cacheable=False)
        if outcome.timed_out or outcome.signal is not None or outcome.limit is not None:
            if side == "original":
                message = f"the original did not finish ({outcome.describe()}), so the translation was not judged"
                return _result(target, "unavailable", message, started, cacheable=False)
            message = f"the translation {outcome.describe()}; the original exited {outcome.exit_code}"
            return _result(target, "failed", message, started, cacheable=not outcome.timed_out, output=_tail(outcome.stderr))
        stopped = runtime_stop(outcome.exit_code, outcome.stderr) if builder.name == "cpu" else None
        if stopped is not None:
            if stopped.kind == "unsupported" or side == "original":
                message = f"the {side} cannot be judged on the CPU runtime: {stopped.detail}"
                return _result(target, "unavailable", message, started, output=_tail(outcome.stderr))
            message = f"the translation deadlocks on the CPU runtime ({stopped.detail}); the original finished"
            return _result(target, "failed", message, started, output=_tail(outcome.stderr))
        outcomes.append(outcome)
    original, translation = outcomes
    mismatch = compare(
        original.exit_code,
        original.stdout,
        translation.exit_code,
        translation.stdout,
        mode=settings.compare,
        rel_tol=settings.relative_tolerance,
        abs_tol=settings.absolute_tolerance,
        ignore=plan.ignore,
    )
    if mismatch is not None:
        return StageResult(
            "run",
            target,
            "failed",
            f"run on {target}: {mismatch.describe()}",
            duration=time.monotonic() - started,
            mismatch=mismatch,
            file=str(plan.translation.path),
            output=_tail(translation.stderr),
        )
    lines = original.stdout.count(b"\n")
    return _result(
        target,
        "passed",
        f"run on {target}: original and translation agree (exit {original.exit_code}, {lines} line(s) of output;"
        f" {original.duration:.2f} s and {translation.duration:.2f} s)",
        started,
    )


def _limits(settings: VerificationSettings, runner: RunnerName) -> sandbox.Limits:
    limits = settings.limits
    # GPU runtimes reserve huge virtual address ranges: an address-space cap would fail them at start
    gpu = runner in ("nvidia", "amd") or (runner == "command" and settings.command_builds_for != "cpu")
    return sandbox.Limits(
        timeout_seconds=limits.timeout_seconds,
        cpu_seconds=limits.cpu_seconds,
        memory_mb=0 if gpu else limits.memory_mb,
        file_size_mb=limits.file_size_mb,
        processes=limits.processes,
        output_bytes=limits.output_mb * 1024 * 1024,
    )


def _build_failed(side: str, builder: Builder, log: str, command: list[str], target: str, started: float) -> StageResult:
    # The CPU runtime may lack something the real toolchains accept: that is not the translation's
    # fault. A GPU toolchain rejecting a translation the compile stage accepted is.
    outcome: Outcome = "failed" if builder.name != "cpu" and side == "translation" else "unavailable"
    first = next((line for line in log.splitlines() if ": error" in line or "error:" in line), log.strip()[-300:])
    return StageResult(
        "run",
        target,
        outcome,
        f"building the {side} for the {builder.name} runner failed: {first}",
        command=command,
        output=log[-_LOG_TAIL:],
        duration=time.monotonic() - started,
        cacheable=outcome == "failed",
    )


def _tail(data: bytes) -> str:
    return data.decode("utf-8", "replace")[-_LOG_TAIL:]


def _result(
    target: str, outcome: Outcome, message: str, started: float, *, cacheable: bool = True, output: str = ""
) -> StageResult:
    return StageResult(
        "run",
        target,
        outcome,
        message,
        duration=time.monotonic() - started,
        cacheable=cacheable,
        output=output,
    )
