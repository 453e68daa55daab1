"""Where the NVIDIA PyPI wheel (nvcc and its headers) is installed, found without importing it: read by
:func:`cass_lsp.core.targets.detect_cuda`, by the toolchain finder (:mod:`cass_lsp.toolchains.nvidia`)
and by the CPU runner, which compiles Thrust from the wheel's CCCL headers (:func:`cccl_include_dir`)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

WHEEL_PACKAGE = "nvidia.cu13"


def wheel_bin_dir() -> Path | None:
    """``<site-packages>/nvidia/cu13/bin`` when the wheel is installed (found without importing it)."""
    return _wheel_path("bin", "nvcc")


def cccl_include_dir() -> Path | None:
    """``<site-packages>/nvidia/cu13/include/cccl`` (Thrust, CUB, libcu++ of the nvidia-cuda-cccl wheel)
    when it is installed."""
    return _wheel_path("include/cccl", "thrust/version.h")


def _wheel_path(folder: str, marker: str) -> Path | None:
    """``folder`` of the wheel's package when it holds ``marker``."""
    try:
        spec = importlib.util.find_spec(WHEEL_PACKAGE)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        path = Path(location) / folder
        if (path / marker).is_file():
            return path
    return None
