"""Setup: prepare, in the user cache and without root, what cass-lsp can make or fetch by itself,
then say what only the system can provide (``cass-lsp setup`` runs it: :mod:`cass_lsp.cli.setup`).

The steps (each a no-op when its folder is already complete, so a second run only checks):

- ``devlibs``: the gfx11/gfx12/gfx942 device-library folder, generated with the installed LLVM;
- ``rocm71``: HIP 7.1 and 6.2 headers and LLVM-19 device bitcode from PyPI's triton wheels (~6 MB kept);
- ``hip-libs``: hipBLAS, hipFFT, hipSOLVER, hipCUB, rocThrust headers from Debian 13 (needs ``apt-get``).
- ``cuda-libs``: cuBLAS, cuSPARSE, cuFFT, cuRAND, cuSOLVER, NVRTC headers from their PyPI wheels,
  read in place (~3.5 MB kept; :mod:`cass_lsp.toolchains.cudalibs`).

Tools that come from the system (clang++-19, the HIP headers, nvcc, g++) are listed with the install
command of this machine's distribution family (:mod:`cass_lsp.toolchains.distro`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from cass_lsp.toolchains import cudalibs, devlibs, distro, hiplibs, rocm71
from cass_lsp.toolchains.errors import ToolchainMissing

Step = Callable[[devlibs.Log], object]

STEPS: dict[str, tuple[str, Step]] = {
    "devlibs": ("gfx11/gfx12/gfx942 device libraries", lambda log: devlibs.ensure(log=log)),
    "rocm71": ("HIP 7.1 and 6.2 headers (triton wheels)", lambda log: rocm71.fetch(log=log)),
    "hip-libs": ("HIP library headers (Debian 13 packages)", lambda log: hiplibs.fetch(log=log)),
    "cuda-libs": ("CUDA library headers (PyPI wheels)", lambda log: cudalibs.fetch(log=log)),
}
_USER_LEVEL_HINTS = (devlibs.SETUP_HINT, rocm71.SETUP_HINT, hiplibs.SETUP_HINT, cudalibs.SETUP_HINT)
_PIP_ALTERNATIVES = (
    "(pipx: pipx install --force 'cass-lsp[nvidia]'; uv: uv tool install --reinstall 'cass-lsp[nvidia]')"
)


class StepProgress(Protocol):
    """What a step runner reports to: a step started, a line of its log, its outcome."""

    def start(self, label: str) -> None: ...
    def log(self, message: str) -> None: ...
    def finish(self, outcome: str) -> None: ...


def run_steps(names: Sequence[str], progress: StepProgress) -> list[ToolchainMissing]:
    """Run the chosen steps in order; what could not be done, each with its reason and hint."""
    failures = []
    for name in names:
        label, step = STEPS[name]
        progress.start(label)
        try:
            step(progress.log)
        except ToolchainMissing as missing:
            failures.append(missing)
            progress.finish(f"not done: {missing.what} not found; install with: {distro.hint(missing.hint)}")
        else:
            progress.finish("ready")
    return failures


def still_missing() -> tuple[list[str], list[str]]:
    """The tools still missing that setup cannot make: those of cass-lsp's own Python environment
    (the NVIDIA wheels) and those of the system, each with its install command."""
    from cass_lsp import toolchains

    python_env, system = [], []
    for status in toolchains.report():
        if status.found or not status.hint or status.hint in _USER_LEVEL_HINTS:
            continue
        if status.hint.startswith("pip install "):
            python_env.append(f"{status.name}: {status.hint} {_PIP_ALTERNATIVES}")
        else:
            system.append(f"{status.name}: {distro.hint(status.hint)}")
    return python_env, system
