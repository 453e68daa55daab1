"""NVIDIA: nvcc, nvdisasm and cuobjdump from the PyPI wheels (``nvidia.cu13``), else from PATH.

The wheel's ``nvcc.profile`` finds cicc, headers and libraries by itself, so the only environment a
call needs is ``PATH=<wheel>/bin:$PATH`` (which also keeps an unrelated system nvcc out of the way).
nvcc also needs a host C++ compiler for its preprocessing passes.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import os
import shutil
from pathlib import Path

from cass_lsp.toolchains.errors import ToolchainMissing
from cass_lsp.toolchains.versions import tool_version

WHEEL_PACKAGE = "nvidia.cu13"
INSTALL_HINT = "pip install 'cass-lsp[nvidia]'"
HOST_CXX_HINT = "apt-get install --no-install-recommends g++"
_VERSION_RE = r"release [\d.]+, V([\d.]+)"


@dataclasses.dataclass(frozen=True)
class NvidiaToolchain:
    nvcc: Path
    nvdisasm: Path | None
    cuobjdump: Path | None
    version: str
    origin: str  # "wheel" or "PATH"

    @property
    def bin_dir(self) -> Path:
        return self.nvcc.parent

    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        env["PATH"] = os.pathsep.join([str(self.bin_dir), env.get("PATH", "/usr/bin:/bin")])
        return env


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


def _tool_beside(nvcc: Path, name: str) -> Path | None:
    candidate = nvcc.parent / name
    if candidate.is_file() and os.access(candidate, os.X_OK):
        return candidate
    found = shutil.which(name)
    return Path(found) if found else None


def find() -> NvidiaToolchain | None:
    bin_dir = wheel_bin_dir()
    if bin_dir is not None:
        nvcc, origin = bin_dir / "nvcc", "wheel"
    else:
        found = shutil.which("nvcc")
        if found is None:
            return None
        nvcc, origin = Path(os.path.realpath(found)), "PATH"
    version = tool_version(nvcc, ("--version",), _VERSION_RE)
    if version is None:
        return None
    return NvidiaToolchain(
        nvcc=nvcc,
        nvdisasm=_tool_beside(nvcc, "nvdisasm"),
        cuobjdump=_tool_beside(nvcc, "cuobjdump"),
        version=version,
        origin=origin,
    )


def require(*, disassembler: bool = False) -> NvidiaToolchain:
    """The toolchain, or :class:`ToolchainMissing` with the install hint."""
    toolchain = find()
    if toolchain is None:
        raise ToolchainMissing("nvcc (CUDA compiler)", INSTALL_HINT)
    if disassembler and toolchain.nvdisasm is None:
        raise ToolchainMissing("nvdisasm (SASS disassembler)", INSTALL_HINT)
    if host_compiler() is None:
        raise ToolchainMissing("g++ (the host compiler nvcc preprocesses with)", HOST_CXX_HINT)
    return toolchain


def host_compiler() -> Path | None:
    found = shutil.which("g++")
    return Path(found) if found else None


def disassembler_version(toolchain: NvidiaToolchain, name: str) -> str | None:
    path = toolchain.nvdisasm if name == "nvdisasm" else toolchain.cuobjdump
    return tool_version(path, ("--version",), _VERSION_RE) if path is not None else None
