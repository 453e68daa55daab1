"""Run CUDA and HIP programs on the CPU, for run-verification where there is no GPU.

``include/`` holds a header-only C++ runtime (replacement ``cuda_runtime.h``, ``hip/hip_runtime.h``
and friends); :func:`prepare_source` rewrites what the headers cannot express (``<<<>>>`` launches,
``extern __shared__``, inline PTX through :mod:`cass_lsp.cpu.ptx`); :func:`unsupported` names
constructs the runtime cannot emulate;
:func:`build` compiles a file and :func:`build_program` a program's units with the host compiler; :mod:`cass_lsp.cpu.outcome` reads a run's
exit status; :mod:`cass_lsp.cpu.hip_names` generates the runtime's HIP names from the API tables.
"""

from __future__ import annotations

from cass_lsp.cpu.build import BuildResult, available, build, build_program, include_dir, toolchain_version
from cass_lsp.cpu.outcome import RunOutcome, classify
from cass_lsp.cpu.refuse import Unsupported, unsupported
from cass_lsp.cpu.rewrite import prepare_source

__all__ = [
    "BuildResult",
    "RunOutcome",
    "Unsupported",
    "available",
    "build",
    "build_program",
    "classify",
    "include_dir",
    "prepare_source",
    "toolchain_version",
    "unsupported",
]
