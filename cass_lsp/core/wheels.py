"""Where the NVIDIA PyPI wheel (nvcc and its headers) is installed, found without importing it: read by
:func:`cass_lsp.core.targets.detect_cuda` and by the toolchain finder (:mod:`cass_lsp.toolchains.nvidia`)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

WHEEL_PACKAGE = "nvidia.cu13"


def wheel_bin_dir() -> Path | None:
    """``<site-packages>/nvidia/cu13/bin`` when the wheel is installed (found without importing it)."""
    try:
        spec = importlib.util.find_spec(WHEEL_PACKAGE)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        bin_dir = Path(location) / "bin"
        if (bin_dir / "nvcc").is_file():
            return bin_dir
    return None
