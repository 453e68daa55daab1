"""AMD: Debian's LLVM 19 (clang++-19, llvm-as-19, llvm-objdump-19, ld.lld-19), HIP headers of
ROCm 5.2 (``/usr/include/hip``) and ROCm device bitcode (rocm-device-libs).

Debian's ``hipcc`` is not used: it switches to the NVIDIA platform when nvcc is on PATH and is wired
to clang-15; clang is called directly.
"""

from __future__ import annotations

import dataclasses
import os
import platform
import shutil
from pathlib import Path

from cass_lsp.toolchains.errors import ToolchainMissing
from cass_lsp.toolchains.versions import tool_version
from cass_lsp.translate import targets

LLVM_MAJOR = 19
PACKAGES = "clang-19 lld-19 llvm-19 libamdhip64-dev rocm-device-libs"
INSTALL_HINT = f"apt-get install --no-install-recommends {PACKAGES}"
CLANG_HINT = "apt-get install --no-install-recommends clang-19 lld-19"
LLVM_HINT = "apt-get install --no-install-recommends llvm-19"
HIP_HINT = "apt-get install --no-install-recommends libamdhip64-dev"
DEVICE_LIBS_HINT = "apt-get install --no-install-recommends rocm-device-libs"
HIP_INCLUDE = Path("/usr/include")
LLVM_DIR_ENV = "CASS_LSP_LLVM_DIR"
"""A folder holding clang++, llvm-objdump, ... of LLVM 19, for installs outside Debian's layout."""
_DEBIAN_LLVM_BIN = f"/usr/lib/llvm-{LLVM_MAJOR}/bin"
_CLANG_VERSION_RE = r"clang version (\S+)"
_LLVM_VERSION_RE = r"(?:LLVM version|LLD) (\d\S*)"


# Tools found once stay found (re-checked with one stat); a missing one is looked for again on
# every call, so installing it while the server runs is picked up.
_found: dict[tuple[str, str], Path] = {}


def _remembered(key: tuple[str, str]) -> Path | None:
    hit = _found.get(key)
    return hit if hit is not None and hit.exists() else None


def find_tool(name: str) -> Path | None:
    """``<name>`` in ``$CASS_LSP_LLVM_DIR`` when set, else ``<name>-19`` on PATH, else ``<name>`` in
    Debian's ``/usr/lib/llvm-19/bin``."""
    llvm_dir = os.environ.get(LLVM_DIR_ENV)
    key = (name, f"{llvm_dir}|{os.environ.get('PATH', '')}")
    hit = _remembered(key)
    if hit is not None:
        return hit
    found = None if llvm_dir else shutil.which(f"{name}-{LLVM_MAJOR}")
    candidate = Path(found) if found else Path(llvm_dir or _DEBIAN_LLVM_BIN) / name
    if not candidate.is_file():
        return None
    _found[key] = candidate
    return candidate


def clang() -> Path | None:
    return find_tool("clang++")


def clang_version(path: Path) -> str | None:
    return tool_version(path, ("--version",), _CLANG_VERSION_RE)


def llvm_version(path: Path) -> str | None:
    return tool_version(path, ("--version",), _LLVM_VERSION_RE)


def lld() -> Path | None:
    return find_tool("ld.lld")


@dataclasses.dataclass(frozen=True)
class HipHeaders:
    include_dir: Path  # the directory holding ``hip/``
    version: str


def hip_version_of(include_dir: Path) -> str | None:
    """``MAJOR.MINOR[.PATCH]`` from ``<include_dir>/hip/hip_version.h``."""
    return targets.read_hip_version(str(include_dir))


def debian_hip_headers() -> HipHeaders | None:
    version = hip_version_of(HIP_INCLUDE)
    return HipHeaders(HIP_INCLUDE, version) if version else None


def debian_bitcode_dir() -> Path | None:
    """rocm-device-libs' folder of ``ocml.bc``, ``oclc_*.bc`` (multiarch path, any architecture)."""
    key = ("amdgcn/bitcode", "")
    hit = _remembered(key)
    if hit is not None:
        return hit
    usual = Path(f"/usr/lib/{platform.machine()}-linux-gnu/amdgcn/bitcode")
    for candidate in (usual, *sorted(Path("/usr/lib").glob("*/amdgcn/bitcode"))):
        if (candidate / "ocml.bc").is_file():
            _found[key] = candidate
            return candidate
    return None


@dataclasses.dataclass(frozen=True)
class AmdToolchain:
    clang: Path
    clang_version: str
    llvm_as: Path


def require() -> AmdToolchain:
    """clang++-19 and llvm-as-19, or :class:`ToolchainMissing` with the install hint."""
    clang_path = clang()
    version = clang_version(clang_path) if clang_path else None
    if clang_path is None or version is None:
        raise ToolchainMissing(f"clang++-{LLVM_MAJOR}", CLANG_HINT)
    llvm_as = find_tool("llvm-as")
    if llvm_as is None:
        raise ToolchainMissing(f"llvm-as-{LLVM_MAJOR}", LLVM_HINT)
    return AmdToolchain(clang=clang_path, clang_version=version, llvm_as=llvm_as)


def require_debian_hip() -> tuple[HipHeaders, Path]:
    """Debian's HIP 5.2 headers and device bitcode, or :class:`ToolchainMissing`."""
    headers = debian_hip_headers()
    if headers is None:
        raise ToolchainMissing("HIP headers (/usr/include/hip)", HIP_HINT)
    bitcode = debian_bitcode_dir()
    if bitcode is None:
        raise ToolchainMissing("ROCm device libraries (amdgcn/bitcode)", DEVICE_LIBS_HINT)
    return headers, bitcode
