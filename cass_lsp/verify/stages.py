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
import re
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import msgspec

from cass_lsp import toolchains
from cass_lsp.asm import diagnostics
from cass_lsp.compile import includes, nvcc_flags
from cass_lsp.compile import program as program_module
from cass_lsp.compile.diagnostic import CompilerDiagnostic
from cass_lsp.compile.nvcc_flags import Flags
from cass_lsp.compile.program import Program, Side
from cass_lsp.compile.scratch import HipTarget, Scratch, UnsafeName
from cass_lsp.core import proc
from cass_lsp.core import settings as config
from cass_lsp.core.pairs import Pair
from cass_lsp.toolchains import ToolchainMissing
from cass_lsp.translate import naming, placement
from cass_lsp.translate.buffer import translated
from cass_lsp.translate.fingerprint import fingerprint
from cass_lsp.verify import cuda_headers, header_gaps, library_headers
from cass_lsp.verify.compare import Mismatch

if TYPE_CHECKING:
    from cass_lsp.core.cancel import CancelToken
    from cass_lsp.services.settings import ResolvedSettings

SCHEMA = 3
"""Part of every stage key: bump when a stage's commands or its result's layout change."""
Outcome = Literal["passed", "failed", "skipped", "unavailable", "cancelled"]
_OUTPUT_TAIL = 4000
# What a compiler prints when it breaks itself rather than rejecting the code.
_COMPILER_DEFECT = re.compile(r"Illegal instruction detected|LLVM ERROR:|PLEASE submit a bug report|internal compiler error")
_MISSING_HEADER = re.compile(r"'(?P<header>[^']+)' file not found")
# Debian 12 installs one LLVM OpenMP at a time: libomp-19-dev removes the libomp-15-dev that hipcc's
# clang-15 links a ported -fopenmp build with (scripts/setup.sh), so the hint says what it costs.
_HEADER_HINTS = {"omp.h": "apt-get install libomp-19-dev for clang-19 (on Debian 12 it replaces libomp-15-dev,"
                          " which hipcc's clang-15 needs to build a port with -fopenmp)"}
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
    tool: str = ""
    """The compiler of a compile stage, as messages name it (``nvcc``, ``clang-19``)."""

    @property
    def label(self) -> str:
        return self.name if self.target is None else f"{self.name} ({self.target})"


class Inputs(msgspec.Struct, frozen=True):
    """What one verification reads: the pair the user touched, the program it belongs to, and the
    texts of the program's files (from the editor's buffers where open, else from disk)."""

    pair: Pair
    program: Program
    texts: dict[str, str]

    @property
    def original_text(self) -> str:
        return self.texts[self.pair.original]

    @property
    def translation_text(self) -> str | None:
        """None: the original's in-memory rule translation."""
        return self.texts[self.pair.translation] if self.pair.translation is not None else None

    @property
    def rule_translation(self) -> bool:
        return any(u.translation is None for u in self.program.units)


def digest(*parts: object) -> str:
    return hashlib.sha256(msgspec.json.encode(parts)).hexdigest()


def _text_digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()


def _file_digest(path: Path) -> str:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return "missing"


def user_flags(resolved: ResolvedSettings) -> Flags:
    """The user's own flags for each compiler (settings and CLI; ``asm.extraArgs`` too)."""
    settings = resolved.verification
    return nvcc_flags.from_user(
        (*resolved.nvcc_args, *settings.nvcc_args), (*resolved.clang_args, *settings.hip_args), settings.cpu_args
    )


def program_digest(inputs: Inputs, side: Side) -> dict[str, str]:
    """Every file the ``side`` of the program reads → its content digest: part of each key. The
    original's side reads its units and their local headers; the translation's, the translation
    files, the originals (a unit without a translation file is compiled as its rule translation)
    and the headers its units reach."""
    program = inputs.program
    read = program.files if side == "translation" else tuple(u.original for u in program.units)
    files = {f: _text_digest(inputs.texts[f]) for f in read if f in inputs.texts}
    files.update({str(h): _file_digest(h) for h in program_module.headers(program, inputs.texts, side)})
    return files


def _keyed_units(program: Program, side: Side) -> list[object]:
    """The program's units as the ``side``'s keys name them: the original's compile never reads a
    translation file, so a port edited (or first written) next to an unchanged original finds the
    original's compile in the cache."""
    if side == "original":
        return [msgspec.to_builtins(msgspec.structs.replace(u, translation=None)) for u in program.units]
    return [msgspec.to_builtins(u) for u in program.units]


@dataclasses.dataclass(frozen=True)
class CompilePlan:
    """A compile stage resolved (tools, flags, files) but not run; ``key`` addresses its result."""

    name: Literal["original", "translation"]
    target: str
    inputs: Inputs
    translate_to: HipTarget | None
    """What units without a translation file and the local headers are rule-translated for (the
    translation side; None on the original's)."""
    prefix: tuple[str, ...]
    """The compiler's argv prefix (tool, target, mode flags)."""
    unit_flags: tuple[tuple[str, ...], ...]
    """Each unit's flags for this compiler."""
    dropped: tuple[str, ...]
    env: dict[str, str]
    versions: dict[str, str]
    key: str

    @property
    def tool(self) -> str:
        """The compiler as messages name it: nvcc, or clang with the chosen LLVM's major version."""
        if self.name == "original":
            return "nvcc"
        major = self.versions.get("clang", "").split(".", 1)[0]
        return f"clang-{major}" if major.isdigit() else "clang"

    @property
    def file(self) -> str:
        """The user's file the stage stands for (the pair's side)."""
        pair = self.inputs.pair
        return pair.original if self.name == "original" or pair.translation is None else pair.translation

    def steps(self, built: program_module.Materialized, root: str) -> list[list[str]]:
        """argv of each step over the units written into ``root``."""
        out: list[list[str]] = []
        for index, (unit, flags) in enumerate(zip(built.units, self.unit_flags, strict=True)):
            mapped = built.mapped_flags(flags)
            if self.name == "original":
                if unit.suffix.lower() == ".cu" or nvcc_flags.declares_cuda(flags):
                    out.append([*self.prefix, "--ptx", *mapped, "-o", f"{root}/unit{index}.ptx", str(unit)])
                else:  # a host unit: nvcc hands it to the host compiler
                    out.append([*self.prefix, "-c", *mapped, "-o", f"{root}/unit{index}.o", str(unit)])
                continue
            out.append([*self.prefix, *mapped, "-fsyntax-only", str(unit)])
            out.append(
                [*self.prefix, *mapped, "--cuda-device-only", "--no-gpu-bundle-output", "-c", "-o", f"{root}/unit{index}.o", str(unit)]
            )
        return out


def plan_original(inputs: Inputs, resolved: ResolvedSettings) -> CompilePlan:
    """Stage (a). Raises ToolchainMissing (nvcc not installed) or ValueError (a bad arch)."""
    settings = resolved.verification
    nv = toolchains.nvcc_invocation(settings.nvidia_arch)
    user = user_flags(resolved)
    flags = [inputs.program.flags(unit, user) for unit in inputs.program.units]
    return _plan("original", settings.nvidia_arch, inputs, None, nv, tuple(nvcc_flags.nvcc_unit_flags(f) for f in flags), flags)


def plan_translation(inputs: Inputs, resolved: ResolvedSettings, arch: str) -> CompilePlan:
    """Stage (b) for one AMD target. Raises ToolchainMissing or ValueError (no headers for the
    ROCm version, an unknown target)."""
    invocation = toolchains.hip_invocation(arch, resolved.rocm)
    # units without a translation file, and every local header, take their rule translation
    translate_to = HipTarget(arch, resolved.rocm, resolved.options)
    # the rule translation's host code calls [[nodiscard]] HIP APIs the user never wrote
    quiet = ("-Wno-unused-result",) if inputs.rule_translation else ()
    user = user_flags(resolved)
    flags = [inputs.program.flags(unit, user) for unit in inputs.program.units]
    prefixed = dataclasses.replace(invocation, argv=(*invocation.argv, *quiet))
    return _plan("translation", arch, inputs, translate_to, prefixed, tuple(tuple(f.clang) for f in flags), flags)


def _plan(
    name: Literal["original", "translation"],
    target: str,
    inputs: Inputs,
    translate_to: HipTarget | None,
    invocation: toolchains.Invocation,
    unit_flags: tuple[tuple[str, ...], ...],
    flags: list[Flags],
) -> CompilePlan:
    dropped = tuple(dict.fromkeys(d for f in flags for d in f.dropped))
    key = digest(
        SCHEMA,
        name,
        target,
        _keyed_units(inputs.program, name),
        program_digest(inputs, name),
        msgspec.to_builtins(translate_to),
        fingerprint() if translate_to else "",
        invocation.argv,
        unit_flags,
        invocation.versions,
    )
    return CompilePlan(name, target, inputs, translate_to, invocation.argv, unit_flags, dropped, invocation.env, invocation.versions, key)


def unavailable(name: Literal["original", "translation", "run"], target: str | None, error: Exception) -> StageResult:
    """A stage that could not be tried here, and why (with the install hint for a missing tool)."""
    message = f"{error.what} not found; {error.hint}" if isinstance(error, ToolchainMissing) else str(error)
    return StageResult(name, target, "unavailable", message, cacheable=False)


def run_compile(
    plan: CompilePlan,
    *,
    timeout: float,
    token: CancelToken | None = None,
    nice: int = 0,
    limits: proc.Limits | None = None,
) -> StageResult:
    """Run the plan's steps in a fresh temp dir (each only after the previous one passed), each
    process bounded by ``limits`` (default: ``cass.compilerLimits``'s defaults). A program with an
    include no compiler may read fails without running anything."""
    refused = program_module.refusals(plan.inputs.program, plan.inputs.texts, plan.name)
    if refused:
        return _refused(plan, refused)
    renamed = _renamed_includes(plan) if plan.name == "translation" else []
    if renamed:
        first = renamed[0]
        where = f"{os.path.basename(first.file or '')}:{first.line}"
        message = f"{plan.tool} was not started for {_what(plan)}: {where}: {first.message}"
        return StageResult(plan.name, plan.target, "failed", message, diagnostics=renamed, file=plan.file, tool=plan.tool)
    limits = limits or config.CompilerLimits().bounds()
    started = time.monotonic()
    cancel = token.event if token is not None else None
    with tempfile.TemporaryDirectory(prefix="cass-verify-") as tmp:
        root = os.path.realpath(tmp)
        try:
            built = program_module.materialize(
                os.path.join(root, "src"), plan.inputs.program, plan.inputs.texts, plan.name, translator=translated,
                translate_to=plan.translate_to, place_runtime=placement.tree_fixes
            )
        except UnsafeName as error:
            # this machine's temp dir, not the code: nothing was compiled
            return StageResult(plan.name, plan.target, "unavailable", str(error), file=plan.file, cacheable=False, tool=plan.tool)
        scratch = built.scratch
        shown: list[str] = []
        for argv in plan.steps(built, root):
            shown = scratch.shown(argv)
            remaining = max(1.0, timeout - (time.monotonic() - started))
            result = proc.run(argv, timeout=remaining, env=plan.env, cwd=root, cancel=cancel, nice=nice, limits=limits)
            if not result.ok:
                return _failed(plan, scratch, result, shown, time.monotonic() - started, limits)
        return StageResult(
            plan.name,
            plan.target,
            "passed",
            _passed_message(plan),
            command=shown,
            duration=time.monotonic() - started,
            file=plan.file,
            tool=plan.tool,
        )


def _passed_message(plan: CompilePlan) -> str:
    units = len(plan.inputs.program.units)
    what = "the original" if plan.name == "original" else _what(plan)
    message = f"{what} compiles with {plan.tool} for {plan.target}"
    if units > 1:
        message += f" ({units} units)"
    if plan.dropped:
        message += f"; build flags not applied: {', '.join(plan.dropped)}"
    return message


def _refused(plan: CompilePlan, refused: list[includes.Refusal]) -> StageResult:
    first = refused[0]
    found = [r.diagnostic() for r in refused]
    where = f"{first.file.name}:{first.line}" if first.line else first.file.name
    message = f"{plan.tool} was not started for {_what(plan)}: {where}: {first.message}"
    return StageResult(plan.name, plan.target, "failed", message, diagnostics=found, file=plan.file, tool=plan.tool)


def _failed(
    plan: CompilePlan, scratch: Scratch, result: proc.ProcResult, shown: list[str], duration: float, limits: proc.Limits
) -> StageResult:
    output = result.text()
    found = diagnostics.parse(output, scratch.map_location)
    tool = plan.tool
    if result.cancelled:
        return StageResult(plan.name, plan.target, "cancelled", "cancelled", duration=duration, cacheable=False)
    # an error on a line of the program is the program's, whatever words it holds ("out of memory")
    bound = None if any(d.file for d in found if d.severity == "error") else limits.hit(result)
    if result.timed_out or bound is not None:
        # a slow machine, or bounds set for another one, say nothing about the code
        message = (
            f"{tool} timed out after {duration:.0f} s (its process group was killed;"
            " cass.verification.compileTimeoutSeconds)"
            if bound is None
            else f"{tool} {bound}"
        )
        return StageResult(
            plan.name, plan.target, "unavailable", message, duration=duration, file=plan.file, cacheable=False, tool=tool,
            output=output.replace(scratch.root, "<tmp>")[-_OUTPUT_TAIL:],
        )  # fmt: skip
    errors = [d for d in found if d.severity == "error"]
    # a HIP library name the headers here are too old for is not the translation's error, nor what
    # clang said on its line after guessing another name for it ("did you mean"); any other is
    gaps = [e for e in errors if plan.name == "translation" and header_gaps.newer_than_headers(e.message, plan.versions)]
    gap_lines = {(e.file, e.line) for e in gaps}
    own = [e for e in errors if (e.file, e.line) not in gap_lines]
    first = own[0] if own else errors[0] if errors else None
    stale = header_gaps.newer_than_headers(first.message, plan.versions) if first is not None and not own else None
    # the compiler broke its own invariants (a backend check, a crash), on no line of the program: a
    # defect of the toolchain or its device libraries, not evidence about the code
    defect = not any(e.file for e in errors) and _COMPILER_DEFECT.search(output) is not None
    missing = _MISSING_HEADER.search(first.message) if first and plan.name == "translation" else None
    renamed = (
        _renamed_include(plan, Path(first.file), missing["header"], lacking=True) if first and first.file and missing else None
    )
    library = None if defect or renamed is not None else _library_gap(plan, first, missing, limits)
    absent = library is None and missing is not None and renamed is None and not cuda_headers.is_cuda_header(missing["header"])
    if defect:
        message = (
            f"{tool} failed inside its own code generation for {plan.target}, on no line of the program (a"
            f" compiler or device-library defect): {_last_lines(output)}"
        )
    elif library is not None:
        message = f"{tool} could not check {_what(plan)} for {plan.target}: {library}"
    elif stale:
        where = f" at {os.path.basename(first.file)}:{first.line}" if first and first.file and first.line else ""
        message = f"{tool} cannot check {_what(plan)} for {plan.target} here{where}: {stale}"
    elif absent:
        assert missing is not None
        header = missing["header"]
        hint = _HEADER_HINTS.get(header, "install the package that provides it for this clang")
        message = (f"{tool} has no <{header}> here, a header of the system or of a HIP library, not of the"
                   f" translation: {hint}")
    else:
        where = f" at {os.path.basename(first.file)}:{first.line}" if first and first.file and first.line else ""
        why = renamed or (first.message if first else _last_lines(output))
        message = f"{tool} rejects {_what(plan)} for {plan.target}{where}: {why}"
    return StageResult(
        plan.name,
        plan.target,
        "unavailable" if defect or absent or library or stale else "failed",
        message,
        diagnostics=found,
        command=shown,
        output=scratch.unlinked(output).replace(scratch.root, "<tmp>")[-_OUTPUT_TAIL:],
        duration=duration,
        file=plan.file,
        cacheable=not (defect or absent or library or stale),
        tool=tool,
    )


def _library_gap(
    plan: CompilePlan, first: CompilerDiagnostic | None, missing: re.Match[str] | None, limits: proc.Limits
) -> str | None:
    """Why the translation's first error is a HIP library's headers missing or failing here for the
    target ROCm (:mod:`.library_headers`), or None when it is the translation's to answer for."""
    if first is None or plan.translate_to is None:
        return None
    profile = toolchains.rocm_profile(plan.translate_to.rocm)
    if missing is not None:
        return library_headers.missing_header(missing["header"], profile)
    return library_headers.failing_library(first, plan.prefix, plan.env, profile, limits)


def _renamed_include(plan: CompilePlan, including: Path, header: str, *, lacking: bool) -> str | None:
    """Why the translation's quoted include of ``header`` in ``including`` (a file of the
    translation's tree) is the translation's defect: the translation renamed the file (a hand or
    model port that made ``kernels.cu`` ``kernels.hip`` and kept its ``#include "kernels.cu"``), or,
    with ``lacking`` (clang found it nowhere), its tree lacks a file the original's has there.
    None when neither holds, or the file is there."""
    if (including.parent / header).exists():
        return None
    for unit in plan.inputs.program.units:
        if unit.translation is None or not including.is_relative_to(Path(unit.translation).parent):
            continue
        relative = including.parent.relative_to(Path(unit.translation).parent)
        original = Path(unit.original).parent / relative / header
        if Path(unit.original).parent == Path(unit.translation).parent or not original.is_file():
            continue
        renames = {naming.translated_name(header, reverse=False, beside_original=b) for b in (False, True)} - {header}
        now = next((name for name in sorted(renames) if (including.parent / name).is_file()), None)
        where = f"the original's {os.path.relpath(original, Path(unit.original).parent)}"
        if now is not None:
            return (f"the translation includes \"{header}\", a file it renamed to {now} ({where}): the include"
                    " must follow the rename")
        if lacking:
            return f"the translation includes \"{header}\", which its tree lacks ({where})"
    return None


def _renamed_includes(plan: CompilePlan) -> list[CompilerDiagnostic]:
    """The quoted includes of the translation files that name a file the translation renamed:
    found before compiling, since the build's ``-I`` folders may reach the original's file under
    the old name, and the translation would be compiled with a file of the original's."""
    found = []
    for unit in plan.inputs.program.units:
        if unit.translation is None:
            continue
        text = plan.inputs.texts.get(unit.translation, "")
        for directive in includes.directives(text):
            if directive.angled or directive.embeds:
                continue
            why = _renamed_include(plan, Path(unit.translation), directive.name, lacking=False)
            if why is not None:
                found.append(CompilerDiagnostic("error", why, unit.translation, directive.line))
    return found


def _what(plan: CompilePlan) -> str:
    if plan.name == "original":
        return "the original"
    units = plan.inputs.program.units
    if all(u.translation is None for u in units):
        return "the rule translation"
    return "the translation" if all(u.translation is not None for u in units) else "the translation (and rule translations)"


def _last_lines(output: str) -> str:
    lines = [line for line in output.strip().splitlines() if line.strip()]
    return " / ".join(lines[-_MESSAGE_LINES:]) or "no output"

