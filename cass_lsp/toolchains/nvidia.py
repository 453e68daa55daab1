"""NVIDIA: nvcc, nvdisasm and cuobjdump, looked for in this order (:func:`candidates`; the first
that runs is used, and ``origin`` says which and why):

1. the PyPI wheels (``nvidia.cu13``) in cass-lsp's own Python environment (``cass-lsp[nvidia]``);
2. the CUDA toolkit ``$CUDA_HOME`` (or ``$CUDA_PATH``) names;
3. ``nvcc`` on ``PATH``;
4. a CUDA toolkit in ``/usr/local/cuda``, else the newest ``/usr/local/cuda-X.Y``.

nvcc's ``nvcc.profile`` finds cicc, headers and libraries by itself, so the only environment a
call needs is ``PATH=<nvcc's bin>:$PATH`` (which also keeps another nvcc out of the way). nvcc also
needs a host C++ compiler for its preprocessing passes.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
from pathlib import Path

from cass_lsp.core.wheels import wheel_bin_dir
from cass_lsp.toolchains.errors import ToolchainMissing
from cass_lsp.toolchains.versions import tool_version

INSTALL_HINT = "pip install 'cass-lsp[nvidia]'"
HOST_CXX_HINT = "apt-get install --no-install-recommends g++"
_VERSION_RE = r"release [\d.]+, V([\d.]+)"
CUDA_HOME_ENVS = ("CUDA_HOME", "CUDA_PATH")
TOOLKIT_BASE = Path("/usr/local")


@dataclasses.dataclass(frozen=True)
class NvidiaToolchain:
    nvcc: Path
    nvdisasm: Path | None
    cuobjdump: Path | None
    version: str
    origin: str  # where it was found and why it was looked for there (doctor prints it)

    @property
    def bin_dir(self) -> Path:
        return self.nvcc.parent

    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        env["PATH"] = os.pathsep.join([str(self.bin_dir), env.get("PATH", "/usr/bin:/bin")])
        return env


def versioned_cudart(nvcc: Path) -> Path | None:
    """The PyPI wheels' ``lib/libcudart.so.<major>`` beside ``nvcc``'s toolkit when there is no plain
    ``libcudart.so`` (a CUDA install has one, and build systems look for that name)."""
    lib = nvcc.resolve().parent.parent / "lib"
    if (lib / "libcudart.so").exists():
        return None
    found = sorted(lib.glob("libcudart.so.*"))
    return found[0] if found else None


def _tool_beside(nvcc: Path, name: str) -> Path | None:
    candidate = nvcc.parent / name
    if candidate.is_file() and os.access(candidate, os.X_OK):
        return candidate
    found = shutil.which(name)
    return Path(found) if found else None


def _toolkit_order(path: Path) -> tuple[int, tuple[int, ...]]:
    """``/usr/local/cuda`` first (the toolkit's own "current" link), then ``cuda-X.Y`` newest first."""
    if path.name == "cuda":
        return (0, ())
    digits = path.name.removeprefix("cuda-").split(".")
    return (1, tuple(-int(d) for d in digits if d.isdigit()))


def toolkit_dirs(base: Path | None = None) -> list[Path]:
    """The CUDA toolkits installed under ``base`` (default :data:`TOOLKIT_BASE`: ``cuda``,
    ``cuda-12.6``, ...) that have an nvcc."""
    found = [p for p in (base or TOOLKIT_BASE).glob("cuda*") if (p / "bin" / "nvcc").is_file()]
    return sorted(found, key=_toolkit_order)


def candidates() -> list[tuple[Path, str]]:
    """Every nvcc cass-lsp would consider, in order, each with why it is where it is looked for."""
    found: list[tuple[Path, str]] = []
    bin_dir = wheel_bin_dir()
    if bin_dir is not None:
        found.append((bin_dir / "nvcc", "the NVIDIA wheels in cass-lsp's Python environment"))
    for name in CUDA_HOME_ENVS:
        home = os.environ.get(name)
        if home:
            found.append((Path(home) / "bin" / "nvcc", f"${name}={home}"))
    on_path = shutil.which("nvcc")
    if on_path is not None:
        found.append((Path(os.path.realpath(on_path)), f"nvcc on PATH ({on_path})"))
    found += [(home / "bin" / "nvcc", f"the CUDA toolkit in {home}") for home in toolkit_dirs()]
    return found


def find() -> NvidiaToolchain | None:
    for nvcc, origin in candidates():
        version = tool_version(nvcc, ("--version",), _VERSION_RE) if nvcc.is_file() else None
        if version is None:
            continue
        return NvidiaToolchain(
            nvcc=nvcc,
            nvdisasm=_tool_beside(nvcc, "nvdisasm"),
            cuobjdump=_tool_beside(nvcc, "cuobjdump"),
            version=version,
            origin=origin,
        )
    return None


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
