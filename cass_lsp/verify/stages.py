"""The compile stages of a verification, each a separate result with its own content key.

(a) ``original``: the CUDA original through nvcc (``--ptx``: the whole file through nvcc's front end
and the device code through ptxas's input, no GPU needed). (b) ``translation`` per AMD target: the
HIP translation through clang-19, ``-fsyntax-only`` first (host and device semantics), then a full
device compile (``--cuda-device-only -c``: code generation and the device link, which reject what
only looks like HIP, such as PTX left in inline ``asm``). A CUDA file with no translation file is
compiled as its in-memory rule translation, and the compiler's lines map back to the original's.
The run stage lives in :mod:`.run`.

Stage functions are synchronous (the job layer runs them on workers, the CLI calls them directly)
and never raise for the user's code: every outcome is a :class:`StageResult`.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import msgspec

from cass_lsp import proc, toolchains
from cass_lsp.asm import diagnostics
from cass_lsp.asm.listing import CompilerDiagnostic
from cass_lsp.asm.scratch import HipTarget, Scratch, materialize, project_inputs
from cass_lsp.toolchains import ToolchainMissing
from cass_lsp.translate.fingerprint import fingerprint
from cass_lsp.verify.compare import Mismatch
from cass_lsp.verify.pairs import Pair

if TYPE_CHECKING:
    from cass_lsp.jobs.cancel import CancelToken
    from cass_lsp.jobs.resolved import ResolvedSettings

SCHEMA = 1
"""Part of every stage key: bump when a stage's commands or its result's layout change."""
Outcome = Literal["passed", "failed", "skipped", "unavailable", "cancelled"]
_ROOT = "@@CASS_VERIFY@@"
_OUTPUT_TAIL = 4000
# What a stage prints for the user: a compiler's output is long, its first error says most.
_MESSAGE_LINES = 3


class StageResult(msgspec.Struct, frozen=True, rename="camel"):
    name: Literal["original", "translation", "run"]
    target: str | None
    outcome: Outcome
    message: str
    diagnostics: list[CompilerDiagnostic] = msgspec.field(default_factory=list)
    """Compiler messages, paths and lines already those of the user's files."""
    command: list[str] = msgspec.field(default_factory=list)
    output: str = ""
    duration: float = 0.0
    mismatch: Mismatch | None = None
    file: str | None = None
    """The user's file the stage judged (the original, or the translation, or the original when
    the translation is its in-memory rule translation)."""
    cacheable: bool = True
    """False for outcomes that say more about this moment than about the inputs (timeouts)."""
    cached: bool = False
    """Taken from the result cache (computed earlier, perhaps before a restart)."""

    @property
    def label(self) -> str:
        return self.name if self.target is None else f"{self.name} ({self.target})"


class Inputs(msgspec.Struct, frozen=True):
    """What one verification reads: the pair and the texts of its files (from the editor's
    buffers where open, else from disk)."""

    pair: Pair
    original_text: str
    translation_text: str | None
    """None: the original's in-memory rule translation."""

    @property
    def rule_translation(self) -> bool:
        return self.translation_text is None


def digest(*parts: object) -> str:
    return hashlib.sha256(msgspec.json.encode(parts)).hexdigest()


def _text_digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()


def _file_digest(path: Path) -> str:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return "missing"


@dataclasses.dataclass(frozen=True)
class CompilePlan:
    """A compile stage resolved (tools, flags, files) but not run; ``key`` addresses its result."""

    name: Literal["original", "translation"]
    target: str
    file: str
    source: str
    headers: tuple[str, ...]
    translate_to: HipTarget | None
    """What the in-memory rule translation is for, when the stage compiles one."""
    steps: tuple[tuple[str, ...], ...]
    """argv of each step; ``_ROOT`` stands for the temp dir."""
    env: dict[str, str]
    versions: dict[str, str]
    key: str


def plan_original(inputs: Inputs, resolved: ResolvedSettings) -> CompilePlan:
    """Stage (a). Raises ToolchainMissing (nvcc not installed) or ValueError (a bad arch)."""
    settings = resolved.verification
    path = Path(inputs.pair.original)
    nv = toolchains.nvcc_invocation(settings.nvidia_arch)
    flags, headers = project_inputs(inputs.original_text, path, resolved.compile_commands)
    step = (*nv.argv, "--ptx", *flags, *resolved.nvcc_args, "-o", f"{_ROOT}/original.ptx", f"{_ROOT}/{path.name}")
    return _plan("original", settings.nvidia_arch, path, inputs.original_text, headers, None, (step,), nv)


def plan_translation(inputs: Inputs, resolved: ResolvedSettings, arch: str) -> CompilePlan:
    """Stage (b) for one AMD target. Raises ToolchainMissing or ValueError (no headers for the
    ROCm version, an unknown target)."""
    invocation = toolchains.hip_invocation(arch, resolved.rocm)
    if inputs.translation_text is None:
        path, text = Path(inputs.pair.original), inputs.original_text
        translate_to: HipTarget | None = HipTarget(arch, resolved.rocm, resolved.options)
        # the translation's host code calls [[nodiscard]] HIP APIs the user never wrote
        quiet: tuple[str, ...] = ("-Wno-unused-result",)
    else:
        assert inputs.pair.translation is not None
        path, text, translate_to, quiet = Path(inputs.pair.translation), inputs.translation_text, None, ()
    flags, headers = project_inputs(text, path, resolved.compile_commands)
    common = (*invocation.argv, *quiet, *flags, *resolved.clang_args)
    main = f"{_ROOT}/{path.name}"
    steps = (
        (*common, "-fsyntax-only", main),
        (*common, "--cuda-device-only", "--no-gpu-bundle-output", "-c", "-o", f"{_ROOT}/device.o", main),
    )
    return _plan("translation", arch, path, text, headers, translate_to, steps, invocation)


def _plan(
    name: Literal["original", "translation"],
    target: str,
    path: Path,
    text: str,
    headers: tuple[Path, ...],
    translate_to: HipTarget | None,
    steps: tuple[tuple[str, ...], ...],
    invocation: toolchains.Invocation,
) -> CompilePlan:
    key = digest(
        SCHEMA,
        name,
        target,
        str(path),
        _text_digest(text),
        {str(h): _file_digest(h) for h in headers},
        msgspec.to_builtins(translate_to),
        fingerprint() if translate_to else "",
        steps,
        invocation.versions,
    )
    return CompilePlan(
        name, target, str(path), text, tuple(map(str, headers)), translate_to, steps, invocation.env,
        invocation.versions, key,
    )


def unavailable(name: Literal["original", "translation", "run"], target: str | None, error: Exception) -> StageResult:
    """A stage that could not be tried here, and why (with the install hint for a missing tool)."""
    message = f"{error.what} not found; {error.hint}" if isinstance(error, ToolchainMissing) else str(error)
    return StageResult(name, target, "unavailable", message, cacheable=False)


def run_compile(plan: CompilePlan, *, timeout: float, token: CancelToken | None = None, nice: int = 0) -> StageResult:
    """Run the plan's steps in a fresh temp dir (each only after the previous one passed)."""
    started = time.monotonic()
    cancel = token.event if token is not None else None
    with tempfile.TemporaryDirectory(prefix="cass-verify-") as tmp:
        root = os.path.realpath(tmp)
        scratch = _materialize(plan, root)
        shown: list[str] = []
        for step in plan.steps:
            argv = [part.replace(_ROOT, root) for part in step]
            shown = scratch.shown(argv)
            remaining = max(1.0, timeout - (time.monotonic() - started))
            result = proc.run(argv, timeout=remaining, env=plan.env, cwd=root, cancel=cancel, nice=nice)
            if not result.ok:
                return _failed(plan, scratch, result, shown, time.monotonic() - started)
        return StageResult(
            plan.name,
            plan.target,
            "passed",
            _passed_message(plan),
            command=shown,
            duration=time.monotonic() - started,
            file=plan.file,
        )


def _materialize(plan: CompilePlan, root: str) -> Scratch:
    return materialize(root, plan.source, Path(plan.file), tuple(map(Path, plan.headers)), plan.translate_to)


def _passed_message(plan: CompilePlan) -> str:
    if plan.name == "original":
        return f"the original compiles with nvcc for {plan.target}"
    what = "the rule translation" if plan.translate_to else "the translation"
    return f"{what} compiles with clang-19 for {plan.target}"


def _failed(
    plan: CompilePlan, scratch: Scratch, result: proc.ProcResult, shown: list[str], duration: float
) -> StageResult:
    output = result.text()
    found = diagnostics.parse(output, scratch.map_location)
    tool = "nvcc" if plan.name == "original" else "clang-19"
    if result.cancelled:
        return StageResult(plan.name, plan.target, "cancelled", "cancelled", duration=duration, cacheable=False)
    if result.timed_out:
        message = f"{tool} timed out after {duration:.0f} s (its process group was killed)"
        return StageResult(plan.name, plan.target, "failed", message, duration=duration, file=plan.file, cacheable=False)
    errors = [d for d in found if d.severity == "error"]
    first = errors[0] if errors else None
    where = f" at {os.path.basename(first.file)}:{first.line}" if first and first.file and first.line else ""
    detail = first.message if first else _last_lines(output)
    return StageResult(
        plan.name,
        plan.target,
        "failed",
        f"{tool} rejects {_what(plan)} for {plan.target}{where}: {detail}",
        diagnostics=found,
        command=shown,
        output=output.replace(scratch.root, "<tmp>")[-_OUTPUT_TAIL:],
        duration=duration,
        file=plan.file,
    )


def _what(plan: CompilePlan) -> str:
    if plan.name == "original":
        return "the original"
    return "the rule translation" if plan.translate_to else "the translation"


def _last_lines(output: str) -> str:
    lines = [line for line in output.strip().splitlines() if line.strip()]
    return " / ".join(lines[-_MESSAGE_LINES:]) or "no output"

