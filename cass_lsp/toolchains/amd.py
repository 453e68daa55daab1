"""AMD: LLVM 19 (clang++-19, llvm-as-19, llvm-objdump-19, ld.lld-19), HIP headers of ROCm 5.2
(``/usr/include/hip``) and ROCm device bitcode (rocm-device-libs).

LLVM 19 is looked for in this order (:func:`llvm_dirs`; the first that has the tool is used, and
:func:`find_tool_source` says which and why): ``$CASS_LSP_LLVM_DIR`` (alone, when set);
``<tool>-19`` on PATH (Debian, Ubuntu); ``/usr/lib/llvm-19/bin`` (Debian, Ubuntu);
``/usr/lib64/llvm19/bin`` (Fedora's llvm19 packages); the ``llvm/bin`` of a ROCm install
(``$ROCM_PATH``, ``/opt/rocm``, the newest ``/opt/rocm-X.Y.Z``) whose clang is LLVM 19 (ROCm 6.4);
an unversioned ``clang++`` on PATH that is LLVM 19 (Fedora 41, Arch). The listings and the device
libraries need LLVM 19: triton's ROCm 7.1 bitcode is LLVM 19's, which older LLVMs cannot read.
Where Debian's HIP headers and device bitcode are missing, a ROCm install's are used.

Debian's ``hipcc`` is not used: it switches to the NVIDIA platform when nvcc is on PATH and is wired
to clang-15; clang is called directly.
"""

from __future__ import annotations

import dataclasses
import os
import platform
import re
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
DEBIAN_LIB = Path("/usr/lib")
LLVM_DIR_ENV = "CASS_LSP_LLVM_DIR"
"""A folder holding clang++, llvm-objdump, ... of LLVM 19, for installs outside Debian's layout."""
_DEBIAN_LLVM_BIN = f"/usr/lib/llvm-{LLVM_MAJOR}/bin"
_FEDORA_LLVM_BIN = f"/usr/lib64/llvm{LLVM_MAJOR}/bin"
ROCM_PATH_ENV = "ROCM_PATH"
ROCM_BASE = Path("/opt")
_CLANG_VERSION_RE = r"clang version (\S+)"
_LLVM_VERSION_RE = r"(?:LLVM version|LLD) (\d\S*)"


# Tools found once stay found (re-checked with one stat); a missing one is looked for again on
# every call, so installing it while the server runs is picked up.
_found: dict[tuple[str, str], Path] = {}
_sources: dict[Path, str] = {}
_majors: dict[Path, int | None] = {}


def _remembered(key: tuple[str, str]) -> Path | None:
    hit = _found.get(key)
    return hit if hit is not None and hit.exists() else None


def rocm_installs() -> list[Path]:
    """ROCm installs, in the order they are looked at: ``$ROCM_PATH``, ``/opt/rocm``, then the
    ``/opt/rocm-X.Y.Z`` folders newest first."""
    env = os.environ.get(ROCM_PATH_ENV)
    versioned = sorted(
        ROCM_BASE.glob("rocm-*"),
        key=lambda p: [-int(part) for part in re.findall(r"\d+", p.name)],
    )
    ordered = [Path(env)] if env else []
    ordered += [ROCM_BASE / "rocm", *versioned]
    return [p for p in dict.fromkeys(ordered) if p.is_dir()]


def _llvm_major(bin_dir: Path) -> int | None:
    """The LLVM major version of the clang in ``bin_dir`` (remembered per folder)."""
    if bin_dir not in _majors:
        version = clang_version(bin_dir / "clang") if (bin_dir / "clang").is_file() else None
        _majors[bin_dir] = int(version.split(".")[0]) if version else None
    return _majors[bin_dir]


def llvm_dirs() -> list[tuple[Path | None, str]]:
    """Where LLVM 19's tools are looked for, in order, each with why; ``None`` stands for
    ``<tool>-19`` on PATH."""
    llvm_dir = os.environ.get(LLVM_DIR_ENV)
    if llvm_dir:
        return [(Path(llvm_dir), f"${LLVM_DIR_ENV}={llvm_dir}")]
    dirs: list[tuple[Path | None, str]] = [
        (None, f"on PATH with the -{LLVM_MAJOR} suffix (Debian/Ubuntu's clang-{LLVM_MAJOR}, llvm-{LLVM_MAJOR})"),
        (Path(_DEBIAN_LLVM_BIN), f"Debian/Ubuntu's LLVM {LLVM_MAJOR} ({_DEBIAN_LLVM_BIN})"),
        (Path(_FEDORA_LLVM_BIN), f"Fedora's llvm{LLVM_MAJOR} packages ({_FEDORA_LLVM_BIN})"),
    ]
    for root in rocm_installs():
        bin_dir = root / "llvm" / "bin"
        if _llvm_major(bin_dir) == LLVM_MAJOR:
            dirs.append((bin_dir, f"the ROCm install {root} (its LLVM is {LLVM_MAJOR})"))
    clang_on_path = shutil.which("clang")
    if clang_on_path:
        bin_dir = Path(os.path.realpath(clang_on_path)).parent
        if _llvm_major(bin_dir) == LLVM_MAJOR:
            dirs.append((bin_dir, f"the LLVM {LLVM_MAJOR} on PATH ({bin_dir})"))
    return dirs


def find_tool(name: str) -> Path | None:
    """``<name>`` of LLVM 19 from the first of :func:`llvm_dirs` that has it."""
    key = (name, f"{os.environ.get(LLVM_DIR_ENV)}|{os.environ.get(ROCM_PATH_ENV)}|{os.environ.get('PATH', '')}")
    hit = _remembered(key)
    if hit is not None:
        return hit
    for bin_dir, why in llvm_dirs():
        found = shutil.which(f"{name}-{LLVM_MAJOR}") if bin_dir is None else None
        candidate = Path(found) if found else (bin_dir / name if bin_dir is not None else None)
        if candidate is not None and candidate.is_file():
            _found[key] = candidate
            _sources[candidate] = why
            return candidate
    return None


def find_tool_source(path: Path) -> str | None:
    """Why the tool :func:`find_tool` returned as ``path`` was looked for where it was found."""
    return _sources.get(path)


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


def hip_headers() -> HipHeaders | None:
    """Debian's HIP headers (``/usr/include/hip``), else those of the first ROCm install that has them."""
    for include_dir in (HIP_INCLUDE, *(root / "include" for root in rocm_installs())):
        version = hip_version_of(include_dir)
        if version:
            return HipHeaders(include_dir, version)
    return None


def bitcode_dir() -> Path | None:
    """The folder of ``ocml.bc``, ``oclc_*.bc``: rocm-device-libs' (multiarch path, any
    architecture), else a ROCm install's (``amdgcn/bitcode``, or under its LLVM's clang resource
    folder since ROCm 6.2)."""
    key = ("amdgcn/bitcode", os.environ.get(ROCM_PATH_ENV, ""))
    hit = _remembered(key)
    if hit is not None:
        return hit
    usual = DEBIAN_LIB / f"{platform.machine()}-linux-gnu" / "amdgcn" / "bitcode"
    candidates = [usual, *sorted(DEBIAN_LIB.glob("*/amdgcn/bitcode"))]
    for root in rocm_installs():
        candidates += [root / "amdgcn" / "bitcode", *sorted(root.glob("llvm/lib/clang/*/lib/amdgcn/bitcode"))]
    for candidate in candidates:
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


def require_hip() -> tuple[HipHeaders, Path]:
    """The HIP headers and device bitcode (Debian's 5.2, else a ROCm install's), or :class:`ToolchainMissing`."""
    headers = hip_headers()
    if headers is None:
        raise ToolchainMissing("HIP headers (/usr/include/hip or a ROCm install's)", HIP_HINT)
    bitcode = bitcode_dir()
    if bitcode is None:
        raise ToolchainMissing("ROCm device libraries (amdgcn/bitcode)", DEVICE_LIBS_HINT)
    return headers, bitcode
