"""Target resolution without msgspec (the CLI's cold start imports only this side).

``profile.TargetProfile`` is the settings-facing Struct; the engine works on a ``Target``.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
from pathlib import Path
from typing import NamedTuple

# Wave size by GFX generation: GCN/CDNA (gfx9) run wave64, RDNA (gfx10-12) default to wave32.
_ARCH = re.compile(r"gfx(9|10|11|12)[0-9a-f]{1,2}")
KNOWN_ARCHES = ("gfx1100", "gfx1030", "gfx1200", "gfx90a", "gfx942")
# Targets where clang-19 defines __HIP_NO_IMAGE_SUPPORT (CDNA3: no texture units).
NO_IMAGE_SUPPORT = frozenset({"gfx940", "gfx941", "gfx942"})
# ROCm assumed when no HIP headers are installed: the newest release the rules model.
FALLBACK_ROCM = "7.1"
# CUDA assumed when no nvcc is installed: the newest release the reverse rules model.
FALLBACK_CUDA = "13.0"
_ROCM = re.compile(r"(\d+)\.(\d+)(?:\.\d+)?")


class Target(NamedTuple):
    arch: str
    wave_size: int
    rocm: tuple[int, int]
    cuda_requested: str = "auto"
    """The CUDA a reverse (HIP -> CUDA) translation targets, as the settings say it: resolved (see
    :attr:`cuda`) only when a reverse rule asks, so forward translations never look for nvcc."""

    @property
    def cuda(self) -> tuple[int, int]:
        major, minor = resolve_cuda(self.cuda_requested).split(".")
        return int(major), int(minor)

    @property
    def image_support(self) -> bool:
        return self.arch not in NO_IMAGE_SUPPORT

    @property
    def rocm_text(self) -> str:
        return f"{self.rocm[0]}.{self.rocm[1]}"

    @property
    def cuda_text(self) -> str:
        return f"{self.cuda[0]}.{self.cuda[1]}"


def check_arch(arch: str) -> None:
    if not _ARCH.fullmatch(arch):
        raise ValueError(f"unknown GPU arch {arch!r}: expected an AMD gfx target such as " + ", ".join(KNOWN_ARCHES))


def check_rocm(rocm: str) -> None:
    if rocm != "auto" and not _ROCM.fullmatch(rocm):
        raise ValueError(f"bad ROCm version {rocm!r}: expected 'auto' or MAJOR.MINOR such as 5.2, 6.2, 7.1")


def check_cuda(cuda: str) -> None:
    if cuda != "auto" and not _ROCM.fullmatch(cuda):
        raise ValueError(f"bad CUDA version {cuda!r}: expected 'auto' or MAJOR.MINOR such as 12.4, 13.0")


def wave_size(arch: str) -> int:
    return 64 if arch.startswith("gfx9") else 32


def resolve_rocm(rocm: str) -> str:
    """MAJOR.MINOR; 'auto' reads the installed HIP headers (:func:`detect_rocm`), else FALLBACK_ROCM.

    The one place "auto" is decided: translation, lint, hover and listings all call this (the job
    layer once per settings change), so they never judge against different ROCm versions."""
    if rocm == "auto":
        return detect_rocm() or FALLBACK_ROCM
    m = _ROCM.fullmatch(rocm)
    if m is None:
        check_rocm(rocm)
    assert m is not None
    return f"{int(m[1])}.{int(m[2])}"


def resolve_cuda(cuda: str) -> str:
    """MAJOR.MINOR of the CUDA a reverse translation targets; 'auto' reads the installed nvcc's
    headers (:func:`detect_cuda`), else FALLBACK_CUDA. The one place "auto" is decided, as for ROCm."""
    if cuda == "auto":
        return detect_cuda() or FALLBACK_CUDA
    check_cuda(cuda)
    m = _ROCM.fullmatch(cuda)
    assert m is not None
    return f"{int(m[1])}.{int(m[2])}"


def resolve(arch: str, rocm: str, cuda: str = "auto") -> Target:
    check_arch(arch)
    check_rocm(rocm)
    check_cuda(cuda)
    major, minor = resolve_rocm(rocm).split(".")
    return Target(arch, wave_size(arch), (int(major), int(minor)), cuda)


def _candidate_roots() -> list[str]:
    roots = [os.environ[v] for v in ("HIP_PATH", "ROCM_PATH") if os.environ.get(v)]
    return [*roots, "/opt/rocm", "/usr"]


def read_hip_version(include_dir: str) -> str | None:
    """``MAJOR.MINOR[.PATCH]`` from ``<include_dir>/hip/hip_version.h``; None when absent or unreadable."""
    try:
        with open(os.path.join(include_dir, "hip", "hip_version.h"), encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        return None
    parts = [re.search(rf"#define\s+HIP_VERSION_{k}\s+(\d+)", text) for k in ("MAJOR", "MINOR", "PATCH")]
    if not (parts[0] and parts[1]):
        return None
    return ".".join(m.group(1) for m in parts if m)


@functools.cache
def detect_rocm() -> str | None:
    """MAJOR.MINOR from the first hip_version.h found (HIP_PATH, ROCM_PATH, /opt/rocm, /usr)."""
    for root in _candidate_roots():
        version = read_hip_version(os.path.join(root, "include"))
        if version is not None:
            return ".".join(version.split(".")[:2])
    return None


@functools.cache
def detect_cuda() -> str | None:
    """MAJOR.MINOR from CUDART_VERSION in the headers beside the nvcc cass-lsp compiles with (the
    PyPI wheel, else the nvcc on PATH); read, not run, so that resolving "auto" stays cheap."""
    from cass_lsp.core.wheels import wheel_bin_dir

    bin_dir = wheel_bin_dir()
    if bin_dir is None:
        found = shutil.which("nvcc")
        if found is None:
            return None
        bin_dir = Path(os.path.realpath(found)).parent
    try:
        text = (bin_dir.parent / "include" / "cuda_runtime_api.h").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    m = re.search(r"#define\s+CUDART_VERSION\s+(\d+)", text)
    if m is None:
        return None
    version = int(m[1])
    return f"{version // 1000}.{version % 1000 // 10}"
