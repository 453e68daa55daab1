"""Runners: what builds the two programs of a run stage and where they run.

- ``nvidia``: both on this machine's NVIDIA GPU; the original through nvcc, the translation through
  nvcc and the project's HIP-on-NVIDIA header (:func:`cass_lsp.toolchains.shim_dir`).
- ``amd``: the translation on this machine's AMD GPU (clang-19 against the installed ROCm, linked
  with ``-lamdhip64``); the original, which cannot run there, on the CPU runtime.
- ``cpu``: both on the CPU runtime of :mod:`cass_lsp.cpu` (the translation with the target's wave
  size, so code that assumes 32-wide warps shows on wave-64 targets).
- ``command``: built for ``commandBuildsFor`` here and run through the user's argv template
  (``{exe}``, ``{workdir}``): here (a wrapper, srun on a shared file system), or with ``commandHost``
  on a GPU box, the program copied there over ssh (:mod:`cass_lsp.verify.remote`).

:func:`detect` picks for ``"auto"``: an NVIDIA GPU, else an AMD GPU, else the CPU runtime.
"""

from __future__ import annotations

import dataclasses
import functools
import glob
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from cass_lsp import toolchains
from cass_lsp.compile import nvcc_flags
from cass_lsp.compile import program as program_module
from cass_lsp.compile.nvcc_flags import Flags
from cass_lsp.compile.program import Side
from cass_lsp.compile.scratch import HipTarget, Scratch
from cass_lsp.core import proc
from cass_lsp.toolchains import ToolchainMissing
from cass_lsp.translate import placement
from cass_lsp.translate.buffer import translated
from cass_lsp.verify.stages import Inputs

RunnerName = Literal["nvidia", "amd", "cpu", "command"]
Dialect = Literal["cuda", "hip"]
BUILD_NICE = 10


class CannotRun(Exception):
    """The runner cannot take this program (a construct the CPU runtime lacks, a missing tool)."""


@dataclasses.dataclass(frozen=True)
class Built:
    exe: Path | None
    log: str
    command: list[str]
    scratch: Scratch | None = None
    """Maps the build's paths back to the user's files."""
    bound: str | None = None
    """The bound of ``cass.compilerLimits`` that stopped the build, in words (:meth:`proc.Limits.hit`)."""

    @property
    def ok(self) -> bool:
        return self.exe is not None


@dataclasses.dataclass(frozen=True)
class Builder:
    """How one toolchain turns one side of a program into an executable."""

    name: Literal["nvidia", "amd", "cpu"]
    arch: str
    warp_size: int = 32

    def identity(self) -> dict[str, str]:
        """Toolchain versions: part of a run's key."""
        if self.name == "cpu":
            from cass_lsp import cpu

            return {"cpu": cpu.toolchain_version(), "warp": str(self.warp_size)}
        if self.name == "nvidia":
            return toolchains.nvcc_invocation(self.arch).versions
        return {"amd": rocm_runtime_version() or "none", "arch": self.arch}

    def flags(self, flags: Flags) -> tuple[str, ...]:
        """What this toolchain takes of a program's flags."""
        if self.name == "cpu":
            return flags.gxx
        # the nvidia runner builds the HIP side with nvcc too, through the HIP-on-NVIDIA header
        return flags.clang if self.name == "amd" else nvcc_flags.nvcc_unit_flags(flags)

    def build(
        self,
        inputs: Inputs,
        dialect: Dialect,
        flags: Flags,
        translate_to: HipTarget | None,
        workdir: Path,
        *,
        timeout: float,
        cancel: threading.Event | None,
        limits: proc.Limits,
    ) -> Built:
        """Write the program's side (``cuda``: the originals; ``hip``: the translation) into
        ``workdir``/src and build ``workdir``/program, each compiler process bounded by
        ``limits``. Raises CannotRun or ToolchainMissing."""
        side: Side = "original" if dialect == "cuda" else "translation"
        exe = workdir / "program"
        if self.name == "cpu":
            from cass_lsp import cpu

            written = program_module.materialize(
                str(workdir / "src"), inputs.program, inputs.texts, side, translator=translated, translate_to=translate_to, prepare=_cpu_source,
                place_runtime=placement.tree_fixes,
            )
            built = cpu.build_program(
                written.units,
                exe,
                hip=dialect == "hip",
                warp_size=self.warp_size,
                timeout=timeout,
                cancel=cancel,
                extra_args=written.mapped_flags(self.flags(flags)),
                # the translation stands for the AMD target it was made for, whatever its wave size
                platform="amd" if dialect == "hip" and self.arch.startswith("gfx") else None,
                limits=limits,
            )
            shown = written.scratch.shown(list(built.command))
            return Built(exe if built.ok else None, built.log, shown, written.scratch, built.bound)
        written = program_module.materialize(str(workdir / "src"), inputs.program, inputs.texts, side, translator=translated, translate_to=translate_to,
                                               place_runtime=placement.tree_fixes)
        units = [str(u) for u in written.units]
        mapped = written.mapped_flags(self.flags(flags))
        if self.name == "nvidia":
            nv = toolchains.nvcc_invocation(self.arch, hip_source=dialect == "hip")
            argv, env = [*nv.argv, "-O2", *mapped, "-o", str(exe), *units], nv.env
        else:
            argv, env = _amd_argv(self.arch, mapped, units, exe), dict(os.environ)
        result = proc.run(argv, timeout=timeout, env=env, cwd=workdir, cancel=cancel, nice=BUILD_NICE, limits=limits)
        exe_built = exe if result.ok and exe.is_file() else None
        return Built(exe_built, result.text(), written.scratch.shown(argv), written.scratch, limits.hit(result))


def _cpu_source(text: str) -> str:
    from cass_lsp import cpu

    refused = cpu.unsupported(text)
    if refused:
        first = refused[0]
        raise CannotRun(f"cannot run on CPU: {first.construct} (line {first.line + 1}: {first.detail})")
    return cpu.prepare_source(text)


def _amd_argv(arch: str, flags: Sequence[str], units: Sequence[str], exe: Path) -> list[str]:
    from cass_lsp.toolchains import amd

    root = rocm_runtime_root()
    if root is None:
        raise ToolchainMissing("a ROCm runtime (libamdhip64)", "install ROCm (https://rocm.docs.amd.com) on a machine with an AMD GPU")
    clang = amd.require().clang
    return [
        str(clang), "-x", "hip", f"--offload-arch={arch}", f"--rocm-path={root}", "-O2", *flags,
        "-o", str(exe), *units, f"-L{root / 'lib'}", f"-Wl,-rpath,{root / 'lib'}", "-lamdhip64",
    ]


# ---------------------------------------------------------------------- detection


def nvidia_gpu() -> bool:
    """An NVIDIA GPU this process can open (the device nodes the driver creates)."""
    return any(os.access(path, os.R_OK | os.W_OK) for path in glob.glob("/dev/nvidia[0-9]*"))


@functools.cache
def rocm_runtime_root() -> Path | None:
    """A ROCm install with the HIP runtime library (not just headers, as Debian's HIP 5.2 has)."""
    for candidate in (os.environ.get("ROCM_PATH"), os.environ.get("HIP_PATH"), "/opt/rocm"):
        if candidate and Path(candidate, "lib", "libamdhip64.so").exists():
            return Path(candidate)
    return None


def rocm_runtime_version() -> str | None:
    root = rocm_runtime_root()
    if root is None:
        return None
    version_file = root / ".info" / "version"
    return version_file.read_text().strip() if version_file.is_file() else str(root)


def amd_gpu() -> bool:
    return os.access("/dev/kfd", os.R_OK | os.W_OK) and rocm_runtime_root() is not None


def cpu_runtime() -> tuple[bool, str]:
    from cass_lsp import cpu

    return cpu.available()


def availability() -> dict[str, tuple[bool, str]]:
    """Each runner: can it run here, and why not (what ``doctor`` prints)."""
    nv = nvidia_gpu()
    cpu_ok, cpu_why = cpu_runtime()
    return {
        "nvidia": (nv, "an NVIDIA GPU (/dev/nvidia0)" if nv else "no NVIDIA GPU device (/dev/nvidia*) here"),
        "amd": (
            amd_gpu(),
            "an AMD GPU and ROCm" if amd_gpu() else "needs /dev/kfd and a ROCm runtime (libamdhip64) under ROCM_PATH or /opt/rocm",
        ),
        "cpu": (cpu_ok, cpu_why),
        "command": (True, "runs the argv template of cass.verification.command, here or on commandHost over ssh"),
    }


def require(runner: RunnerName) -> None:
    """Raise CannotRun, saying why, when ``runner`` cannot run programs here."""
    ok, why = availability()[runner]
    if not ok:
        raise CannotRun(f"the {runner} runner cannot run here: {why}")


def detect() -> Literal["nvidia", "amd", "cpu", "none"]:
    """The runner "auto" means here."""
    if nvidia_gpu():
        return "nvidia"
    if amd_gpu():
        return "amd"
    return "cpu" if cpu_runtime()[0] else "none"


def command_argv(template: Sequence[str], exe: Path, workdir: Path) -> list[str]:
    """The user's template with its placeholders filled; each element stays one argument.

    A template that starts with ssh is refused: ``{exe}`` is a path on this machine, absent on the
    other one, and both programs failing alike there would look like agreement. commandHost copies
    the program over (:mod:`cass_lsp.verify.remote`)."""
    if not template:
        raise CannotRun('cass.verification.command is empty: give an argv template such as ["srun", "{exe}"]')
    if Path(template[0]).name == "ssh":
        raise CannotRun(
            "cass.verification.command runs ssh, but the program is built on this machine and does not exist on"
            " the other one: set cass.verification.commandHost (and commandSsh for ssh options) instead"
        )
    try:
        return [part.format(exe=str(exe), workdir=str(workdir)) for part in template]
    except (KeyError, IndexError, ValueError) as error:
        raise CannotRun(f"cass.verification.command: bad placeholder {error}; use {{exe}} and {{workdir}}") from None


def builders(runner: RunnerName, *, nvidia_arch: str, amd_arch: str, wave_size: int, builds_for: str) -> tuple[Builder, Builder]:
    """(builder of the original, builder of the translation) for ``runner``."""
    if runner == "command":
        runner = builds_for  # type: ignore[assignment]
    if runner == "nvidia":
        return Builder("nvidia", nvidia_arch), Builder("nvidia", nvidia_arch)
    if runner == "amd":
        return Builder("cpu", "cpu", 32), Builder("amd", amd_arch)
    if runner == "cpu":
        return Builder("cpu", "cpu", 32), Builder("cpu", amd_arch, wave_size)
    raise CannotRun(f"unknown runner {runner!r}")

