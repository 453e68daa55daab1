"""Compile one file for one target with the real compiler and return its :class:`Listing`.

NVIDIA targets (``sm_XX``): ``nvcc -cubin -lineinfo -Xptxas -v`` then ``nvdisasm -c -gi``; a ``.hip``
file goes through the HIP-on-NVIDIA shim header. AMD targets (``gfxNNNN``): ``clang++-19 -x hip
--cuda-device-only -S -gline-tables-only`` against ROCm 5.2 or 7.1 headers; a CUDA file is first
rewritten by the rule translation (in memory, its local headers too) and lines are mapped back.

The buffer text is compiled, not the file on disk, in a private temp dir (:mod:`.scratch`), and every
path and line in the output is mapped back to the user's file. The file and its folder reach the
compiler under names no shell acts on (:meth:`.scratch.Scratch.inert`): nvcc's sub-tools run through
``sh``. Compiler errors come back as a
:class:`CompileFailure` with parsed diagnostics; a missing tool raises ``ToolchainMissing``.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

import msgspec

from cass_lsp import toolchains
from cass_lsp.asm import diagnostics, rdna, sass
from cass_lsp.asm.listing import CompileFailure, Function, Listing, ListingResult, SourceLoc
from cass_lsp.compile import includes
from cass_lsp.compile.diagnostic import CompilerDiagnostic
from cass_lsp.compile.linemap import LineMap
from cass_lsp.compile.scratch import HipTarget, Scratch, materialize, project_inputs
from cass_lsp.core import proc
from cass_lsp.core import settings as config
from cass_lsp.core.profile import TranslateOptions
from cass_lsp.toolchains import cxxfilt, nvidia
from cass_lsp.translate.buffer import translated
from cass_lsp.translate.fingerprint import fingerprint

SCHEMA = 1
"""Part of every cache key: bump when parsing or the Listing layout changes."""
DEFAULT_TARGETS = ("sm_90", "gfx1100")
_WORK = "@@CASS_WORK@@"
# the buffer's copy and the file's folder, named in the argv only once the temp dir holds their links
_UNIT = "@@CASS_UNIT@@"
_FOLDER = "@@CASS_FOLDER@@"
_OUTPUT_TAIL = 4000
Vendor = Literal["nvidia", "amd"]


def vendor_of(target: str) -> Vendor:
    if target.startswith("sm_"):
        return "nvidia"
    if target.startswith("gfx"):
        return "amd"
    raise ValueError(f"unknown target {target!r}: expected sm_XX (NVIDIA) or gfxNNNN (AMD)")


def is_hip(path: str | Path) -> bool:
    return Path(path).suffix.lower() == ".hip"


@dataclasses.dataclass(frozen=True)
class Job:
    """Everything one compile needs, resolved; ``key`` addresses its result in the cache."""

    source: str
    path: Path
    target: str
    vendor: Vendor
    rocm: str
    argv: tuple[str, ...]
    """Compiler argv; ``_WORK`` stands for the temp dir, ``_UNIT`` for the buffer's copy in it and
    ``_FOLDER`` for the file's folder."""
    env: dict[str, str]
    disassembler: str | None
    headers: tuple[Path, ...]
    refused: tuple[includes.Refusal, ...]
    """Includes no compile may start with: the job fails on them without running anything."""
    translate: bool
    translate_options: TranslateOptions | None
    toolchain: str
    key: str


def prepare(
    source: str,
    path: str | Path,
    target: str,
    *,
    extra_args: Sequence[str] = (),
    compile_commands: str | Path | None = None,
    rocm: str = "auto",
    translate_options: TranslateOptions | None = None,
) -> Job:
    """Resolve tools, flags and the cache key (no compiling). Raises ToolchainMissing / ValueError.

    ``translate_options`` shape the rule translation an AMD listing of a CUDA file compiles."""
    file = Path(os.path.normpath(Path(path).expanduser().absolute()))
    vendor = vendor_of(target)
    project_flags, headers, refused = project_inputs(source, file, compile_commands, extra_args)
    common = [f"-I{_FOLDER}", *project_flags, *extra_args]
    disassembler: str | None = None
    translate = False
    if vendor == "nvidia":
        invocation = toolchains.nvcc_invocation(target, hip_source=is_hip(file))
        toolchain = nvidia.require(disassembler=True)
        assert toolchain.nvdisasm is not None  # require(disassembler=True) checked it
        disassembler = str(toolchain.nvdisasm)
        language = [] if is_hip(file) or file.suffix == ".cu" else ["-x", "cu"]
        argv = [
            *invocation.argv,
            *language,
            "-cubin",
            "-O3",
            "-lineinfo",
            "-Xptxas",
            "-v",
            *common,
            "-o",
            f"{_WORK}/listing.cubin",
            _UNIT,
        ]
        versions = {**invocation.versions, "nvdisasm": nvidia.disassembler_version(toolchain, "nvdisasm") or "?"}
    else:
        rocm = toolchains.rocm_profile(rocm)
        invocation = toolchains.hip_invocation(target, rocm)
        translate = not is_hip(file)
        # Translated host code calls [[nodiscard]] HIP APIs the user never wrote: not their warning.
        quiet = ["-Wno-unused-result"] if translate else []
        argv = [
            *invocation.argv,
            "--cuda-device-only",
            "-S",
            "-O3",
            "-gline-tables-only",
            *quiet,
            *common,
            "-o",
            f"{_WORK}/listing.s",
            _UNIT,
        ]
        versions = dict(invocation.versions)
    toolchain_text = "; ".join(f"{k} {v.split(' ')[0]}" for k, v in sorted(versions.items()))
    key_material = {
        "schema": SCHEMA,
        "target": target,
        "rocm": rocm if vendor == "amd" else "",
        "path": str(file),
        "argv": argv,
        "versions": versions,
        "source": _digest(source.encode("utf-8", "surrogateescape")),
        "headers": {str(h): _file_digest(h) for h in headers},
        "translator": fingerprint() if translate else "",
        "translate_options": msgspec.to_builtins(translate_options) if translate else None,
    }
    key = hashlib.sha256(msgspec.json.encode(key_material)).hexdigest()
    return Job(
        source=source,
        path=file,
        target=target,
        vendor=vendor,
        rocm=rocm,
        argv=tuple(argv),
        env=invocation.env,
        disassembler=disassembler,
        headers=headers,
        refused=refused,
        translate=translate,
        translate_options=translate_options,
        toolchain=toolchain_text,
        key=key,
    )


def run(
    job: Job,
    *,
    timeout: float,
    cancel: threading.Event | None = None,
    nice: int = 0,
    limits: proc.Limits | None = None,
) -> ListingResult:
    """Compile (and disassemble) ``job`` in a fresh temp dir and parse the result; ``nice`` lowers
    the tools' CPU priority (see :func:`cass_lsp.core.proc.run`), ``limits`` bound every process of
    the tools (default: ``cass.compilerLimits``'s defaults). A job with a refused include runs
    nothing and fails with an error on each such line. Raises :class:`.scratch.UnsafeName` when
    the temp dir's own name is one a shell acts on (nothing runs)."""
    if job.refused:
        return _refused(job)
    limits = limits or config.CompilerLimits().bounds()
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="cass-asm-") as root:
        workspace, unit = _materialize(job, os.path.realpath(root))
        folder = workspace.inert(job.path.parent)
        argv = [a.replace(_UNIT, str(unit)).replace(_FOLDER, folder).replace(_WORK, workspace.root) for a in job.argv]
        compiled = proc.run(
            argv, timeout=timeout, env=job.env, cwd=workspace.root, cancel=cancel, nice=nice, limits=limits
        )
        output = compiled.stderr.decode("utf-8", "replace") + compiled.stdout.decode("utf-8", "replace")
        diags = diagnostics.parse(output, workspace.map_location)
        if not compiled.ok:
            return _failure(job, argv, workspace, diags, output, compiled, limits)
        if job.vendor == "nvidia":
            assert job.disassembler is not None
            remaining = max(1.0, timeout - (time.monotonic() - started))
            listed = proc.run(
                [job.disassembler, "-c", "-gi", f"{workspace.root}/listing.cubin"],
                timeout=remaining,
                env=job.env,
                cancel=cancel,
                nice=nice,
                limits=limits,
            )
            if not listed.ok:
                text = listed.text()
                diags = diagnostics.parse(text, workspace.map_location)
                return _failure(job, argv, workspace, diags, text, listed, limits)
            functions = sass.parse(
                listed.stdout.decode("utf-8", "replace"), output, arch=job.target, map_path=workspace.map_path
            )
        else:
            text = Path(workspace.root, "listing.s").read_text(encoding="utf-8", errors="replace")
            functions = rdna.parse(text, map_path=workspace.map_path)
        _map_lines(functions, workspace.line_maps)
        _demangle(functions)
    return Listing(
        target=job.target,
        dialect="sass" if job.vendor == "nvidia" else "amdgcn",
        source=str(job.path),
        functions=functions,
        toolchain=job.toolchain,
        command=workspace.shown(argv),
        translated=job.translate,
        note=workspace.note,
        diagnostics=[d for d in diags if d.severity != "error"],
        compile_seconds=time.monotonic() - started,
    )


def _failure(
    job: Job,
    argv: list[str],
    workspace: Scratch,
    diags: list[CompilerDiagnostic],
    output: str,
    result: proc.ProcResult,
    limits: proc.Limits,
) -> CompileFailure:
    note: str | None
    # an error on a line of the program is the program's, whatever words it holds ("out of memory")
    bound = None if any(d.file for d in diags if d.severity == "error") else limits.hit(result)
    if result.timed_out:
        note = (
            f"timed out after {result.duration:.0f} s (cass.asm.timeoutSeconds); the compiler's process"
            " group was killed"
        )
    elif result.cancelled:
        note = "cancelled"
    elif bound is not None:
        note = f"the compiler {bound}"
    else:
        note = workspace.note
    return CompileFailure(
        target=job.target,
        source=str(job.path),
        diagnostics=diags,
        output=workspace.unlinked(output).replace(workspace.root, "<tmp>")[-_OUTPUT_TAIL:],
        command=workspace.shown(argv),
        timed_out=result.timed_out,
        cancelled=result.cancelled,
        bounded=bound is not None,
        translated=job.translate,
        note=note,
    )


def _refused(job: Job) -> CompileFailure:
    return CompileFailure(
        target=job.target,
        source=str(job.path),
        diagnostics=[r.diagnostic() for r in job.refused],
        output="",
        translated=job.translate,
        note="not compiled: an include reaches a file that is not a regular file",
    )


def _materialize(job: Job, root: str) -> tuple[Scratch, Path]:
    """Write the source (translated for the AMD side of a CUDA file) and its translated headers;
    returns the scratch folder and the source's copy."""
    target = HipTarget(job.target, job.rocm, job.translate_options) if job.translate else None
    return materialize(root, job.source, job.path, job.headers, target, translated)


def _map_lines(functions: list[Function], line_maps: dict[str, LineMap]) -> None:
    if not line_maps:
        return
    for function in functions:
        for ins in function.instructions:
            if ins.file in line_maps and ins.line is not None:
                ins.line = line_maps[ins.file].original(ins.line)
            ins.inlined_at = [
                SourceLoc(loc.file, line_maps[loc.file].original(loc.line), loc.column)
                if loc.file in line_maps
                else loc
                for loc in ins.inlined_at
            ]


def _demangle(functions: list[Function]) -> None:
    # nvdisasm names a callee cloned into a kernel `$kernel$callee`
    parts = {function.name: function.name.rsplit("$", 1)[-1] for function in functions}
    demangled = cxxfilt.demangle(parts.values())
    for function in functions:
        function.demangled = demangled.get(parts[function.name], function.name)


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _file_digest(path: Path) -> str:
    try:
        return _digest(path.read_bytes())
    except OSError:
        return "missing"
