"""Stage (c): build the original program and its translation for a runner, run both, compare.

Only ever started when ``cass.verification.run`` is on and the workspace is trusted (the caller's
decision: :func:`run_refusal`). Each program is built in a fresh directory and each run gets its own
working directory holding a copy of the program's data files (a link only when it leads to a file
inside the program's folder: :func:`cass_lsp.compile.program.data_files`) and the executable, under a name
none of them takes, through
:mod:`.sandbox` (its confinement level said out loud; where nothing confines a program, runs are
refused unless the user-level setting ``allowUnconfinedRuns`` says otherwise), or on
``commandHost`` over ssh (:mod:`.remote`).

A verdict must be true, so the translation is judged only against an original that ran cleanly:

- the original runs twice; each run must end with the expected exit code
  (``cass.verification.expectedExit``, 0 by default) within its limits, and print output to compare
  (unless ``compare`` is "exit-code"); what differs between its two runs is noise, not evidence
  (:func:`.compare.noise`), and the verdict says how much was left out;
- an original that does not build, does not finish, exits otherwise, or prints nothing makes the
  stage "unavailable" with the reason: a missing input file that fails both sides alike is never a
  pass; and so does a failure of the runner or the sandbox rather than of the program;
- the translation fails when it does not build on a GPU toolchain, does not finish, deadlocks at
  barriers, or differs in exit code or output; it passes only when it agrees. A deadlock with threads
  waiting at a warp collective is "unavailable": AMD hardware never waits at one;
- on the CPU runner the order the threads of a block run in is a choice, and a race hides in the
  one order: the original's second run and a second run of the translation run each block's
  threads in reverse (``CASS_CPU_ORDER=reverse``). What the original's two runs differ in is noise as
  above (so an original that races there is judged only where it does not); a translation whose
  output changes with the order fails as a race, named with the kernel that races (each kernel
  reversed alone, :data:`RACE_SEARCH_KERNELS` at most) and its line.
- on the CPU runner, what each side copied back from the device is compared too, element by
  element, in order (:mod:`.copies`): a translation whose copies differ where the outputs agree
  fails with the first differing element named; copies that vary between the original's two runs
  are left out, and a record that cannot be matched copy for copy (another count or size of
  copies, the size cap) is said in the verdict, never judged.

The translation runs once per AMD target in ``arches`` with that target's wave size (32 or 64).
"""

from __future__ import annotations

import contextlib
import dataclasses
import re
import shlex
import shutil
import tempfile
import time
from pathlib import Path
from typing import IO, TYPE_CHECKING, Literal

import msgspec

from cass_lsp.compile import program as program_module
from cass_lsp.compile.nvcc_flags import Flags
from cass_lsp.compile.scratch import HipTarget
from cass_lsp.core import proc, targets, user_settings
from cass_lsp.cpu.outcome import RunOutcome as RuntimeStop
from cass_lsp.cpu.outcome import runtime_stop
from cass_lsp.toolchains import ToolchainMissing
from cass_lsp.translate.fingerprint import fingerprint
from cass_lsp.verify import command, copies, remote, runners, sandbox
from cass_lsp.verify.compare import Mismatch, Noise, compare, ignore_patterns, lines_agree, merge_noise, noise
from cass_lsp.verify.races import race_suspects
from cass_lsp.verify.runners import Builder, CannotRun, Dialect, RunnerName
from cass_lsp.verify.stages import SCHEMA, Inputs, Outcome, StageResult, digest, program_digest, user_flags

if TYPE_CHECKING:
    import threading

    from cass_lsp.core.cancel import CancelToken
    from cass_lsp.core.settings import VerificationSettings
    from cass_lsp.services.settings import ResolvedSettings

_LOG_TAIL = 4000
ORIGINAL_RUNS = 2
"""Runs of the original: what differs between them is noise."""
RACE_SEARCH_KERNELS = 8
"""Kernels of a racing translation run reversed one at a time to name the one that races."""
_REVERSED = "each block's threads in reverse order"
COPY_RECORD_MB = 64
"""The most a run's record of device-to-host copies holds (less where the run's limits are lower)."""
# exit codes a shell or launcher uses for "could not start the program"
_NOT_STARTED = {126: "could not be executed", 127: "was not found"}


@dataclasses.dataclass(frozen=True)
class RunPlan:
    runner: RunnerName
    target: str
    """The stage's target: the runner, with the AMD arch when several are verified."""
    arch: str
    inputs: Inputs
    original_builder: Builder
    translation_builder: Builder
    translate_to: HipTarget | None
    flags: Flags
    settings: VerificationSettings
    ignore: list[re.Pattern[str]]
    data: list[Path]
    data_note: str | None
    key: str
    compiler_limits: proc.Limits
    """What each process of the builds may use (``cass.compilerLimits``)."""


class NotRun(msgspec.Struct, frozen=True):
    """Why the run stage does not start."""

    reason: str
    asked: bool
    """Whether the settings ask for a run (``run`` on, a runner chosen): a program asked to run that
    did not is never "passed" (:func:`cass_lsp.verify.engine.judge`)."""


def run_refusal(
    settings: VerificationSettings,
    trusted: bool,
    inputs: Inputs | None = None,
    *,
    untrusted_because: str = "the editor marks this workspace untrusted",
) -> NotRun | None:
    """Why the run stage must not start, or None when it may."""
    if not settings.run:
        return NotRun("running is off (cass.verification.run)", asked=False)
    if settings.runner == "none":
        return NotRun("no runner (cass.verification.runner is \"none\")", asked=False)
    if not trusted:
        return NotRun(f"running is refused: {untrusted_because}", asked=True)
    if inputs is not None and inputs.program.main is None:
        return NotRun("no unit of the program defines main", asked=True)
    return None


def chosen_runner(settings: VerificationSettings) -> RunnerName | None:
    if settings.runner == "none":
        return None
    if settings.runner != "auto":
        return settings.runner
    detected = runners.detect()
    return None if detected == "none" else detected


def plan_runs(inputs: Inputs, resolved: ResolvedSettings, runner: RunnerName) -> list[RunPlan]:
    """One run plan per AMD target verified (each with its wave size). Raises CannotRun,
    ToolchainMissing or ValueError."""
    settings = resolved.verification
    runners.require(runner)
    _check_env_and_script(settings, runner, inputs.program.root)
    arches = list(settings.arches) or [resolved.arch]
    data, data_note = program_module.data_files(inputs.program, settings.ignore)
    flags = Flags()
    for unit in inputs.program.units:
        flags = flags + inputs.program.flags(unit, Flags())
    flags = flags + user_flags(resolved)
    ignore = ignore_patterns(settings.compare_ignore)
    plans = []
    for arch in arches:
        original_builder, translation_builder = runners.builders(
            runner,
            nvidia_arch=settings.nvidia_arch,
            amd_arch=arch,
            wave_size=targets.wave_size(arch),
            builds_for=settings.command_builds_for,
        )
        translate_to = HipTarget(arch, resolved.rocm, resolved.options)
        key = digest(
            SCHEMA,
            "run",
            copies.FORMAT,
            runner,
            arch,
            original_builder.identity(),
            translation_builder.identity(),
            [msgspec.to_builtins(u) for u in inputs.program.units],
            program_digest(inputs, "original"),
            program_digest(inputs, "translation"),
            [(str(p), p.stat().st_size, p.stat().st_mtime_ns) for p in data],
            msgspec.to_builtins(translate_to),
            fingerprint() if translate_to else "",
            dataclasses.astuple(flags),
            msgspec.to_builtins(settings),
        )
        target = runner if len(arches) == 1 else f"{runner} {arch}"
        plans.append(
            RunPlan(
                runner, target, arch, inputs, original_builder, translation_builder, translate_to, flags, settings, ignore,
                data, data_note, key, resolved.compiler_limits,
            )
        )
    return plans


def _check_env_and_script(settings: VerificationSettings, runner: RunnerName, root: str) -> None:
    """Raises CannotRun when ``env``, ``script`` or ``programPath`` ask for what a run may not do:
    a variable the sandbox sets, a script outside the program's folder or run by anything but a
    shell, a runner that starts the program alone."""
    reserved = sorted(n for n in settings.env if command.reserved(n))
    if reserved:
        raise CannotRun(f"cass.verification.env sets {', '.join(reserved)}, which the sandbox decides for every run")
    if (settings.script or settings.env) and runner == "command":
        raise CannotRun("the command runner starts the program alone: cass.verification.env and script need another runner")
    for name, relative in (("script", _script_file(settings.script)), ("programPath", settings.program_path)):
        if relative and not _inside(relative):
            raise CannotRun(f"cass.verification.{name} {relative!r} is not a path inside the program's folder")
    script = _script_file(settings.script)
    if script and not Path(root, script).is_file():
        raise CannotRun(f"cass.verification.script: {script} is no file of the program's folder {root}")


def _script_file(script: list[str]) -> str | None:
    """The script's path in ``script`` (after the shell that runs it, if one is named)."""
    if not script:
        return None
    if script[0] in command.SHELLS:
        return script[1] if len(script) > 1 else ""
    return script[0]


def _inside(relative: str) -> bool:
    path = Path(relative)
    return bool(relative) and not path.is_absolute() and ".." not in path.parts


def _copy_data(data: list[Path], root: Path, work: Path) -> None:
    """The program's data files into its run folder; CannotRun when one went since the plan (the
    runs of the two sides would not read the same files)."""
    for path in data:
        # checked again: a link changed since the plan must not lead outside the folder now
        source = program_module.data_source(path, root)
        if source is None:
            continue
        copy = work / path.relative_to(root)
        copy.parent.mkdir(parents=True, exist_ok=True)
        try:
            shutil.copy2(source, copy)
        except FileNotFoundError:
            raise CannotRun(f"the data file {path.relative_to(root)} was removed during verification") from None


def _script_argv(script: list[str], work: Path) -> list[str]:
    """The argv that runs ``script`` in the run folder ``work``: its shell by its absolute path."""
    if script[0] in command.SHELLS:
        shell = shutil.which(Path(script[0]).name, path="/usr/bin:/bin")
        if shell is None:
            raise CannotRun(f"{script[0]} is not installed here, and cass.verification.script names it")
        return [shell, script[1], *script[2:]]
    return [str(work / script[0]), *script[1:]]


@dataclasses.dataclass
class _Run:
    """One program's run, or why it says nothing (``unavailable``/``failed`` already decided)."""

    outcome: sandbox.RunOutcome | None = None
    result: StageResult | None = None
    copies: copies.Record | None = None
    """What it copied back from the device (the CPU runner records it)."""


def run_programs(plan: RunPlan, *, token: CancelToken | None = None) -> StageResult:
    """Build and run both programs, then compare (never raises for the user's code)."""
    started = time.monotonic()
    cancel = token.event if token is not None else None
    stage = _StageRun(plan, started, cancel)
    with contextlib.ExitStack() as stack:
        original_dir = stack.enter_context(sandbox.fresh_workdir("cass-build-"))
        translation_dir = stack.enter_context(sandbox.fresh_workdir("cass-build-"))
        built = stage.build("original", original_dir)
        if isinstance(built, StageResult):
            return built
        original_runs: list[_Run] = []
        for index in range(ORIGINAL_RUNS):
            ran = stage.run("original", built, reverse=index == 1 and plan.runner == "cpu")
            if ran.result is not None:
                return ran.result
            assert ran.outcome is not None
            original_runs.append(ran)
        first, second = (r.outcome for r in original_runs if r.outcome is not None)
        reordered = f" (the second with {_REVERSED}: the original races?)" if plan.runner == "cpu" else ""
        if first.exit_code != second.exit_code:
            return stage.result(
                "unavailable",
                f"the original exited {first.exit_code} and then {second.exit_code} in two runs{reordered}: nothing stable to compare",
            )
        varying: Noise | str = Noise() if plan.settings.compare == "exit-code" else noise(first.stdout, second.stdout, plan.ignore)
        if isinstance(varying, str):
            return stage.result("unavailable", f"{varying}{reordered}: nothing stable to compare")
        built_translation = stage.build("translation", translation_dir)
        if isinstance(built_translation, StageResult):
            return built_translation
        ran = stage.run("translation", built_translation)
        if ran.result is not None:
            return ran.result
        assert ran.outcome is not None
        translation = ran.outcome
        translation_copies = ran.copies
        records = [r.copies for r in original_runs]
        if stage.numbers_differ(first, translation, varying):
            # only numbers differ on a line whose text agrees: a measurement printed without a unit
            # (`naive transpose 0.03`) may have repeated by chance in the original's two runs; one
            # more run of each side shows whether the field moves by itself
            more = stage.sample_again(built, built_translation)
            if isinstance(more, StageResult):
                return more
            records.append(more[0].copies)
            varying = merge_noise(varying, *(noise(a.stdout, b.outcome.stdout, plan.ignore) for a, b in ((first, more[0]), (translation, more[1])) if b.outcome))
        elif stage.only_copies_differ(first, translation, varying, records, translation_copies):
            # the original's two runs may have drawn the same input by chance (a seed read from the
            # clock within one second, as cuda-samples' fp16ScalarProduct does); one more run of it,
            # after the translation's, shows whether the copy moves by itself
            again = stage.run("original", built)
            if again.result is not None:
                return again.result
            assert again.outcome is not None
            records.append(again.copies)
            varying = merge_noise(varying, noise(first.stdout, again.outcome.stdout, plan.ignore))
        verdict = stage.judge(first, translation, varying, records, translation_copies)
        if verdict.outcome != "passed" or plan.runner != "cpu":
            return verdict
        return stage.race((built, built_translation), (first, translation), varying) or verdict
    raise AssertionError("unreachable")  # pragma: no cover


class _StageRun:
    """The steps of one run stage, each answering a result when it ends the stage."""

    def __init__(self, plan: RunPlan, started: float, cancel: threading.Event | None) -> None:
        self.plan = plan
        self.started = started
        self.cancel = cancel

    def result(self, outcome: Outcome, message: str, *, cacheable: bool | None = None, output: str = "") -> StageResult:
        # only what the inputs decide is cached: a pass (both sides ran cleanly) or a failure the
        # translation caused; "could not verify" may be this machine's or this moment's
        return StageResult(
            "run",
            self.plan.target,
            outcome,
            message,
            duration=time.monotonic() - self.started,
            cacheable=outcome in ("passed", "failed") if cacheable is None else cacheable,
            output=output,
            file=str(self.plan.inputs.pair.translation or self.plan.inputs.pair.original),
        )

    def build(self, side: Literal["original", "translation"], workdir: Path) -> Path | StageResult:
        plan = self.plan
        builder = plan.original_builder if side == "original" else plan.translation_builder
        dialect: Dialect = "cuda" if side == "original" else "hip"
        translate_to = plan.translate_to if side == "translation" else None
        try:
            built = builder.build(
                plan.inputs, dialect, plan.flags, translate_to, workdir,
                timeout=plan.settings.compile_timeout_seconds, cancel=self.cancel, limits=plan.compiler_limits,
            )  # fmt: skip
        except (CannotRun, ToolchainMissing, ValueError) as error:
            reason = f"{error.what} not found; {error.hint}" if isinstance(error, ToolchainMissing) else str(error)
            return self.result("unavailable", f"{side}: {reason}")
        if self.cancel is not None and self.cancel.is_set():
            return self.result("cancelled", "cancelled")
        if built.exe is None and built.bound is not None:
            # bounds set for another machine say nothing about the translation
            return self.result("unavailable", f"building the {side} for the {builder.name} runner: the compiler {built.bound}")
        if built.exe is None:
            # The CPU runtime may lack something the real toolchains accept: that is not the
            # translation's fault. A GPU toolchain rejecting a translation the compile stage accepted is.
            failed = builder.name != "cpu" and side == "translation"
            first = next((line for line in built.log.splitlines() if ": error" in line or "error:" in line), built.log.strip()[-300:])
            if built.scratch is not None:
                first = built.scratch.unlinked(first).replace(built.scratch.root + "/", str(built.scratch.base) + "/")
            why = f"building the {side} for the {builder.name} runner failed: {first}"
            if not failed:
                why = f"{why}; the translation was not judged" if side == "original" else f"{why} (the CPU runtime may lack something)"
            return self.result("failed" if failed else "unavailable", why, output=built.log[-_LOG_TAIL:])
        return built.exe

    def run(self, side: Literal["original", "translation"], exe: Path, *, reverse: bool = False, kernel: str = "") -> _Run:
        """One run; ``reverse`` (CPU runner): each block's threads in reverse order, only ``kernel``'s
        when one is named."""
        plan = self.plan
        settings = plan.settings
        # the run line's variables, then the runtime's order for a reordered run
        order = {"CASS_CPU_ORDER": "reverse", "CASS_CPU_ORDER_KERNEL": kernel} if reverse else {}
        env = {**settings.env, **order}
        builder = plan.original_builder if side == "original" else plan.translation_builder
        with contextlib.ExitStack() as stack:
            work = stack.enter_context(sandbox.fresh_workdir())
            program = work / (settings.program_path or _exe_name(exe.name, plan))
            stdin = settings.stdin.encode() if settings.stdin is not None else None
            limits = _limits(settings, plan.runner)
            record = stack.enter_context(tempfile.TemporaryFile()) if plan.runner == "cpu" else None
            cap = _record_cap(limits)
            record_env = {copies.ENV_FD: str(record.fileno()), copies.ENV_CAP: str(cap)} if record is not None else {}
            try:
                _copy_data(plan.data, Path(plan.inputs.program.root), work)
                if program.is_dir():
                    raise CannotRun(f"the run folder holds a folder {settings.program_path}, where the program goes")
                program.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(exe, program)
                if plan.runner == "command" and settings.command_host:
                    outcome = remote.run(settings, program, work, list(settings.args), limits=limits, stdin=stdin, cancel=self.cancel)
                else:
                    argv = _script_argv(settings.script, work) if settings.script else [str(program), *settings.args]
                    if plan.runner == "command":
                        argv = [*runners.command_argv(settings.command, program, work), *settings.args]
                    outcome = sandbox.run(
                        argv, workdir=work, limits=limits, stdin=stdin, cancel=self.cancel, env={**env, **record_env} or None,
                        network=plan.runner == "command", allow_unconfined=user_settings.load().allow_unconfined_runs,
                        pass_fds=(record.fileno(),) if record is not None else (),
                    )  # fmt: skip
            except CannotRun as error:
                return _Run(result=self.result("unavailable", str(error)))
            except remote.RemoteError as error:
                host = settings.command_host
                return _Run(result=self.result("unavailable", f"could not run the {side} on {host}: {error}"))
            except sandbox.SandboxError as error:
                return _Run(result=self.result("unavailable", f"could not run the {side}: {error}"))
            recorded = _read_record(record, cap) if record is not None else None
        if outcome.cancelled:
            return _Run(result=self.result("cancelled", "cancelled"))
        stopped = runtime_stop(outcome.exit_code, outcome.stderr) if builder.name == "cpu" else None
        if side == "original":
            return _Run(outcome, self._unclean_original(outcome, stopped), recorded)
        return _Run(outcome, self._unfinished_translation(outcome, stopped), recorded)

    def _unclean_original(self, outcome: sandbox.RunOutcome, stopped: RuntimeStop | None) -> StageResult | None:
        """Why the original's run cannot be a reference, or None when it ran cleanly."""
        settings = self.plan.settings
        tail = _last_line(outcome.stderr)
        if outcome.timed_out or outcome.signal is not None or outcome.limit is not None:
            smaller = _smaller_run_hint(settings) if outcome.timed_out or outcome.limit == "cpu time" else ""
            return self.result(
                "unavailable",
                f"the original did not finish ({outcome.describe()}), so the translation was not judged"
                f"{_limit_hint(outcome)}{smaller}",
                output=_tail(outcome.stderr),
            )
        if stopped is not None:
            return self.result(
                "unavailable", f"the original cannot be judged on the CPU runtime: {stopped.detail}",
                output=_tail(outcome.stderr),
            )
        if outcome.exit_code in _NOT_STARTED and outcome.exit_code != settings.expected_exit:
            return self.result(
                "unavailable", f"the original {_NOT_STARTED[outcome.exit_code]} by the runner (exit {outcome.exit_code}){tail}",
                output=_tail(outcome.stderr),
            )
        if outcome.exit_code != settings.expected_exit:
            # an input left out (too large, a link leading outside the folder) may be why
            left_out = f"; {self.plan.data_note}" if self.plan.data_note else ""
            return self.result(
                "unavailable",
                f"the original exited {outcome.exit_code}, not {settings.expected_exit}{tail}: a run that fails is no"
                f" reference (an input file or argument missing? cass.verification.args, expectedExit){left_out}",
                output=_tail(outcome.stderr),
            )
        if settings.compare != "exit-code" and not outcome.stdout.strip():
            return self.result(
                "unavailable",
                "the original printed nothing to compare (set cass.verification.compare to \"exit-code\" to judge"
                " by exit codes alone)",
            )
        return None

    def _unfinished_translation(self, outcome: sandbox.RunOutcome, stopped: RuntimeStop | None) -> StageResult | None:
        if outcome.timed_out or outcome.signal is not None or outcome.limit is not None:
            message = f"the translation {outcome.describe()}; the original finished{_limit_hint(outcome)}"
            return self.result("failed", message, cacheable=not outcome.timed_out, output=_tail(outcome.stderr))
        if stopped is not None:
            kind, detail = stopped.kind, stopped.detail
            if kind == "unsupported":
                return self.result("unavailable", f"the translation cannot be judged on the CPU runtime: {detail}")
            if _waits_at_a_warp_collective(detail):
                return self.result(
                    "unavailable",
                    f"the translation stops on the CPU runtime ({detail}); the original finished. The runtime"
                    " runs a warp collective once every lane of its mask arrives (all lanes for HIP's shuffles"
                    " and votes, which take no mask), while an AMD GPU runs it with the lanes active there and"
                    " never waits: what a GPU computes here is not known (a divergent __shfl_*_sync whose mask"
                    " the translation dropped?)",
                    output=_tail(outcome.stderr),
                )
            return self.result(
                "failed", f"the translation deadlocks on the CPU runtime ({detail}); the original finished",
                output=_tail(outcome.stderr),
            )
        if outcome.exit_code in _NOT_STARTED and outcome.exit_code != self.plan.settings.expected_exit:
            return self.result(
                "unavailable",
                f"the translation {_NOT_STARTED[outcome.exit_code]} by the runner (exit {outcome.exit_code})"
                f"{_last_line(outcome.stderr)}",
                output=_tail(outcome.stderr),
            )
        return None

    def numbers_differ(self, original: sandbox.RunOutcome, translation: sandbox.RunOutcome, varying: Noise) -> bool:
        """Whether the first difference is in the numbers of a line whose text agrees."""
        mismatch = self._compare(original, translation, varying)
        if mismatch is None or mismatch.what != "output":
            return False
        return lines_agree(mismatch.expected, mismatch.actual, 0.0, 0.0, numbers=False)

    def sample_again(self, original_exe: Path, translation_exe: Path) -> tuple[_Run, _Run] | StageResult:
        """One more clean run of each side."""
        original = self.run("original", original_exe)
        translation = self.run("translation", translation_exe)
        for ran in (original, translation):
            if ran.result is not None:
                return ran.result
        return original, translation

    def only_copies_differ(
        self,
        original: sandbox.RunOutcome,
        translation: sandbox.RunOutcome,
        varying: Noise,
        originals: list[copies.Record | None],
        translated: copies.Record | None,
    ) -> bool:
        """Whether the outputs agree and a device-to-host copy differs."""
        if self._compare(original, translation, varying) is not None:
            return False
        memory = self._compare_copies(originals, translated)
        return isinstance(memory, copies.Outcome) and memory.difference is not None

    def _compare(self, original: sandbox.RunOutcome, translation: sandbox.RunOutcome, varying: Noise) -> Mismatch | None:
        settings = self.plan.settings
        return compare(
            original.exit_code,
            original.stdout,
            translation.exit_code,
            translation.stdout,
            mode=settings.compare,
            rel_tol=settings.relative_tolerance,
            abs_tol=settings.absolute_tolerance,
            ignore=self.plan.ignore,
            noise=varying,
        )

    def _where(self) -> str:
        plan = self.plan
        where = f"run on {plan.runner}" + (f" ({plan.arch}, wave {plan.translation_builder.warp_size})" if plan.runner == "cpu" else "")
        return f"{where} by {shlex.join(plan.settings.script)}" if plan.settings.script else where

    def race(
        self, exes: tuple[Path, Path], runs: tuple[sandbox.RunOutcome, sandbox.RunOutcome], varying: Noise
    ) -> StageResult | None:
        """The translation run again with each block's threads in reverse order: "failed" when its
        output changes (a race between threads of a block), None when it agrees still. ``exes`` and
        ``runs``: the original's and the translation's programs and first runs, in thread order."""
        original_exe, translation_exe = exes
        original, in_order = runs
        ran = self.run("translation", translation_exe, reverse=True)
        if ran.result is not None:
            if ran.result.outcome != "failed":
                return ran.result
            return msgspec.structs.replace(ran.result, message=f"with {_REVERSED}: {ran.result.message}")
        assert ran.outcome is not None
        if self.numbers_differ(original, ran.outcome, varying):
            # as in judging: a measurement may have repeated by chance so far; one more run of
            # each side in thread order shows whether the field moves by itself (the reversed run
            # is never one of the pair: what the order changes is the evidence)
            more = self.sample_again(original_exe, translation_exe)
            if isinstance(more, StageResult):
                return more
            varying = merge_noise(varying, *(noise(a.stdout, b.outcome.stdout, self.plan.ignore) for a, b in ((original, more[0]), (in_order, more[1])) if b.outcome))
        mismatch = self._compare(original, ran.outcome, varying)
        if mismatch is None:
            return None
        site = self._racing_kernel(translation_exe, original, varying)
        result = self.result(
            "failed",
            f"{self._where()}: a race: with {_REVERSED} the translation's output changes, so threads read what"
            f" another thread of their block writes with no barrier between (a __syncthreads() missing?){site}:"
            f" {mismatch.describe()}",
            output=_tail(ran.outcome.stderr),
        )
        return msgspec.structs.replace(result, mismatch=mismatch)

    def _racing_kernel(self, translation_exe: Path, original: sandbox.RunOutcome, varying: Noise) -> str:
        """Where the race is, as `` in kernel K (file:line)``: the first kernel whose reversal alone
        changes the output; "" when none does alone (or it is among kernels past those tried)."""
        for kernel in race_suspects(self.plan.inputs)[:RACE_SEARCH_KERNELS]:
            ran = self.run("translation", translation_exe, reverse=True, kernel=kernel.name)
            if ran.result is not None and ran.result.outcome != "failed":
                continue  # the run says nothing (the sandbox failed, or it was cancelled)
            if ran.result is None and ran.outcome is not None and self._compare(original, ran.outcome, varying) is None:
                continue
            return f" in kernel {kernel.name} ({kernel.file}:{kernel.line})"
        return ""

    def judge(
        self,
        original: sandbox.RunOutcome,
        translation: sandbox.RunOutcome,
        varying: Noise,
        originals: list[copies.Record | None] | None = None,
        translated: copies.Record | None = None,
    ) -> StageResult:
        plan = self.plan
        settings = plan.settings
        mismatch = self._compare(original, translation, varying)
        where = self._where()
        notes = [n for n in (varying.describe(), plan.data_note) if n]
        if mismatch is not None:
            note = f" ({'; '.join(notes)})" if notes else ""
            result = self.result("failed", f"{where}: {mismatch.describe()}{note}", output=_tail(translation.stderr))
            return msgspec.structs.replace(result, mismatch=mismatch, file=str(plan.inputs.pair.translation or plan.inputs.pair.original))
        memory = self._compare_copies(originals or [], translated)
        if isinstance(memory, copies.Outcome) and memory.difference is not None:
            note = "".join(f"; {n}" for n in (*notes, *memory.notes))
            return self.result(
                "failed", f"{where}: the outputs agree, but {memory.difference.describe()}{note}", output=_tail(translation.stderr)
            )
        if memory is not None:
            notes.append(memory if isinstance(memory, str) else memory.describe())
        lines = original.stdout.count(b"\n")
        compared = "exit codes compared" if settings.compare == "exit-code" else f"{lines} line(s) of output"
        extra = "".join(f"; {n}" for n in notes)
        return self.result(
            "passed",
            f"{where}: original and translation agree (exit {original.exit_code}, {compared}{extra};"
            f" {original.duration:.2f} s and {translation.duration:.2f} s)",
        )


    def _compare_copies(self, originals: list[copies.Record | None], translation: copies.Record | None) -> copies.Outcome | str | None:
        """The copy records compared, what varies between the original's runs (``originals``, the
        first the reference) left out; None when there are none: not the CPU runner, or compared by
        exit code."""
        settings = self.plan.settings
        recorded = [r for r in originals if r is not None]
        if len(recorded) < 2 or len(recorded) < len(originals) or translation is None or settings.compare == "exit-code":
            return None
        tolerance = {"mode": settings.compare, "rel_tol": settings.relative_tolerance, "abs_tol": settings.absolute_tolerance}
        first, *others = recorded
        moving = copies.varying(first, *others, **tolerance)  # type: ignore[arg-type]
        if isinstance(moving, str):
            return f"device-to-host copies not compared: {moving}"
        return copies.compare(first, translation, skip=moving, **tolerance)  # type: ignore[arg-type]


def _record_cap(limits: sandbox.Limits) -> int:
    """The bytes a run's copy record may hold: within the file size and disk limits, which the
    runtime stops short of (it writes a cap marker instead of the copy that would pass)."""
    bounds = [mb for mb in (limits.file_size_mb, limits.disk_mb) if mb > 0]
    return min([COPY_RECORD_MB, *bounds]) << 20


def _read_record(record: IO[bytes], cap: int) -> copies.Record:
    record.seek(0)
    # the program holds the descriptor and may write past the runtime's own bound: read no more
    return copies.parse(record.read(cap + (1 << 16)))


def _exe_name(built: str, plan: RunPlan) -> str:
    """A name for the executable in the run's folder that no data file or folder takes: a data
    folder named like it made the copy fail, a data file overwrote it. It depends only on the built
    name (the builders' "program", on both sides) and the plan's data, so both sides of the pair run
    under the same name (a program printing argv[0] still agrees)."""
    # compared case-folded: on a case-insensitive file system "Program" is "program"
    taken = {data.relative_to(plan.inputs.program.root).parts[0].casefold() for data in plan.data}
    name, n = built, 1
    while name.casefold() in taken:
        name, n = f"{built}-{n}", n + 1
    return name


def _limits(settings: VerificationSettings, runner: RunnerName) -> sandbox.Limits:
    limits = settings.limits
    # GPU runtimes reserve huge virtual address ranges: an address-space cap would fail them at start
    gpu = runner in ("nvidia", "amd") or (runner == "command" and settings.command_builds_for != "cpu")
    return sandbox.Limits(
        timeout_seconds=limits.timeout_seconds,
        cpu_seconds=limits.cpu_seconds,
        memory_mb=0 if gpu else limits.memory_mb,
        file_size_mb=limits.file_size_mb,
        disk_mb=limits.disk_mb,
        processes=limits.processes,
        output_bytes=limits.output_mb * 1024 * 1024,
    )


_LIMIT_SETTINGS = {
    "timeout": "cass.verification.limits.timeoutSeconds",
    "cpu time": "cass.verification.limits.cpuSeconds",
    "memory": "cass.verification.limits.memoryMb",
    "file size": "cass.verification.limits.fileSizeMb",
    "disk": "cass.verification.limits.diskMb",
    "processes": "cass.verification.limits.processes",
    "output": "cass.verification.limits.outputMb",
}


_AT_WARP_COLLECTIVE = re.compile(r"\b(\d+) at a warp collective")


def _waits_at_a_warp_collective(detail: str) -> bool:
    """Whether a CPU-runtime deadlock report (cass_cpu/sched.hpp's) has threads waiting at a warp
    collective, which never blocks on AMD hardware, rather than only at barriers."""
    m = _AT_WARP_COLLECTIVE.search(detail)
    return m is not None and int(m[1]) > 0


def _limit_hint(outcome: sandbox.RunOutcome) -> str:
    which = "timeout" if outcome.timed_out else outcome.limit
    setting = _LIMIT_SETTINGS.get(which or "")
    cli = " (verify --timeout)" if which == "timeout" else ""
    return f"; the limit is {setting}{cli}" if setting else ""


def _smaller_run_hint(settings: VerificationSettings) -> str:
    """How to give a run small enough to finish: GPU-sized arguments take far longer on a CPU."""
    if settings.script:
        ran = f"as {shlex.join(settings.script)}"
    else:
        ran = f"with the arguments {shlex.join(settings.args)}" if settings.args else "with no arguments"
    env = f" and {' '.join(f'{k}={shlex.quote(v)}' for k, v in settings.env.items())}" if settings.env else ""
    return (
        f"; it ran {ran}{env}: give it a smaller run (smaller sizes, fewer steps) in cass.verification.args"
        " (verify --arg ARG; verify --project: --run \"PROG SMALLER-ARGS\"), or raise the limit"
    )


def _last_line(stderr: bytes) -> str:
    lines = [line for line in stderr.decode("utf-8", "replace").splitlines() if line.strip()]
    return f" ({lines[-1].strip()[:200]})" if lines else ""


def _tail(data: bytes) -> str:
    return data.decode("utf-8", "replace")[-_LOG_TAIL:]
