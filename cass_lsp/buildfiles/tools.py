"""What building a ported project needs here, for ``cass-lsp doctor`` (optional entries: the
language server works without them)."""

from __future__ import annotations

import glob
import os
import re
import shutil
from typing import NamedTuple

from cass_lsp.buildfiles import libraries
from cass_lsp.buildfiles.files import HIP_CLANG_WRAPPER, TOOLCHAIN_FILE
from cass_lsp.toolchains import ToolStatus

ROCM_HIP_LANG = "/opt/rocm/lib/cmake/hip-lang"
DEBIAN_HINT = "apt-get install hipcc (Debian 12: brings clang-15, whose offload bundler LLVM 19 lacks)"
ROCM_OPENMP = "/opt/rocm/llvm/lib/libomp.so"
OPENMP_NAME = "build: LLVM OpenMP (-fopenmp in a port)"
# Debian's hipcc wrapper runs a versioned clang (``$HIP_CLANG_PATH/clang++-15``)
_VERSIONED_CLANG = re.compile(rb"clang\+\+-(\d+)")
_TOOLCHAIN_CLANGS = ("clang++-15", "clang++-17")  # hip-debian.cmake's choice, in its order


def _debian_hip_llvm() -> str | None:
    """The LLVM major version of Debian's HIP compilers: the clang hipcc's wrapper runs, else the
    one the toolchain file picks."""
    hipcc = shutil.which("hipcc")
    for script in (f"{os.path.realpath(hipcc)}.pl", os.path.realpath(hipcc)) if hipcc else ():
        try:
            with open(script, "rb") as f:
                found = _VERSIONED_CLANG.search(f.read(1 << 20))
        except OSError:
            continue
        if found:
            return found.group(1).decode()
    clang = next((c for c in _TOOLCHAIN_CLANGS if shutil.which(c)), None)
    return clang.rsplit("-", 1)[1] if clang else None


def openmp() -> ToolStatus:
    """LLVM's OpenMP runtime (libomp), which a port's ``-fopenmp`` links under the HIP compiler (nvcc's
    ``-Xcompiler -fopenmp`` linked gcc's libgomp)."""
    if os.path.isdir(os.path.dirname(ROCM_OPENMP)):
        found = os.path.exists(ROCM_OPENMP)
        return ToolStatus(name=OPENMP_NAME, found=found, path=ROCM_OPENMP if found else None,
                          hint=None if found else "ROCm's openmp-extras package (libomp for ROCm's clang)")
    major = _debian_hip_llvm()
    if major is None:
        return ToolStatus(name=OPENMP_NAME, found=False, hint=f"a HIP compiler first: {DEBIAN_HINT}")
    library = f"/usr/lib/llvm-{major}/lib/libomp.so"
    found = os.path.exists(library)
    return ToolStatus(name=OPENMP_NAME, found=found, path=library if found else None,
                      version=f"for clang-{major}", hint=None if found else f"apt-get install libomp-{major}-dev")


class _Library(NamedTuple):
    name: str
    cuda: str  # the CUDA library a port of it replaces
    header: str  # the one its port includes
    install: str  # where to get it, for a machine without it


# the libraries a port links, by their link name (:func:`libraries.hip`): Debian 12 packages hipSPARSE,
# hipRAND, rocSPARSE and rocRAND; Debian 13 (glibc 2.38: not installable on 12) hipBLAS, hipFFT,
# hipSOLVER, rocBLAS and rocSOLVER (what `cass-lsp setup` fetches their headers from); hipBLASLt and
# roctracer's roctx come with ROCm
_DEBIAN_13 = "Debian 12 packages none: on Debian 13 apt-get install {}; on a ROCm install its {} package"
_ROCM_ONLY = "Debian 12 packages none: a ROCm install's {} package"
_LINKED: dict[str, _Library] = {
    "hipblas": _Library("hipBLAS", "cuBLAS", "hipblas/hipblas.h", _DEBIAN_13.format("libhipblas-dev", "hipblas")),
    "hipfft": _Library("hipFFT", "cuFFT", "hipfft/hipfft.h", _DEBIAN_13.format("libhipfft-dev", "hipfft")),
    "hipsolver": _Library("hipSOLVER", "cuSOLVER", "hipsolver/hipsolver.h",
                          _DEBIAN_13.format("libhipsolver-dev", "hipsolver")),
    "hipsparse": _Library("hipSPARSE", "cuSPARSE", "hipsparse/hipsparse.h", "apt-get install libhipsparse-dev"),
    "hiprand": _Library("hipRAND", "cuRAND", "hiprand/hiprand.h", "apt-get install libhiprand-dev"),
    "rocblas": _Library("rocBLAS", "cuBLAS", "rocblas/rocblas.h", _DEBIAN_13.format("librocblas-dev", "rocblas")),
    "rocsolver": _Library("rocSOLVER", "cuSOLVER", "rocsolver/rocsolver.h",
                          _DEBIAN_13.format("librocsolver-dev", "rocsolver")),
    "rocsparse": _Library("rocSPARSE", "cuSPARSE", "rocsparse/rocsparse.h", "apt-get install librocsparse-dev"),
    "rocrand": _Library("rocRAND", "cuRAND", "rocrand/rocrand.h", "apt-get install librocrand-dev"),
    "hipblaslt": _Library("hipBLASLt", "cuBLASLt", "hipblaslt/hipblaslt.h", _ROCM_ONLY.format("hipblaslt")),
    "roctx64": _Library("roctx (roctracer)", "NVTX", "roctracer/roctx.h", _ROCM_ONLY.format("roctracer")),
}
_LIBRARY_FOLDERS = ("/opt/rocm/lib", "/usr/lib/*-linux-gnu", "/usr/lib64", "/usr/lib")


def _linked_library(link: str) -> str | None:
    """Where the shared library ``-l<link>`` lies, when its header is there too (None: not installed)."""
    if not any(os.path.isfile(os.path.join(root, _LINKED[link].header)) for root in _SYSTEM_INCLUDES):
        return None
    return next(iter(sorted(p for folder in _LIBRARY_FOLDERS for p in glob.glob(f"{folder}/lib{link}.so"))), None)


def linked_library_status(link: str) -> ToolStatus:
    library = _LINKED[link]
    path = _linked_library(link)
    return ToolStatus(name=f"build: {library.name} (ported {library.cuda} code)", found=path is not None, path=path,
                      hint=None if path else library.install)


def missing_libraries_hint(families: frozenset[str], setting: str) -> str | None:
    """The libraries the tree's port links (its library ``families``, the ``translate.libraries``
    ``setting``) that this machine lacks, each with where to get it; None when it has them all."""
    links = sorted({libraries.hip(f, setting).link for f in families & libraries.FAMILIES} & _LINKED.keys())
    said = [f"{_LINKED[link].name} ({_LINKED[link].header}, -l{link}): {_LINKED[link].install}"
            for link in links if _linked_library(link) is None]
    if not said:
        return None
    return f"the port builds against libraries this machine lacks: {'; '.join(said)}"


def status() -> list[ToolStatus]:
    hipcc = shutil.which("hipcc")
    statuses = [ToolStatus(name="build: hipcc (ported Makefiles)", found=hipcc is not None, path=hipcc,
                           hint=None if hipcc else DEBIAN_HINT)]
    if os.path.isdir(ROCM_HIP_LANG):
        statuses.append(ToolStatus(name="build: CMake HIP language", found=True, path=ROCM_HIP_LANG,
                                   version="ROCm install: ported CMake projects configure as they are"))
        return [*statuses, openmp(), *map(linked_library_status, _LINKED)]
    clang = shutil.which("clang++-15")
    debian = glob.glob("/usr/lib/*/cmake/hip-lang")
    found = clang is not None and bool(debian)
    statuses.append(ToolStatus(
        name="build: CMake HIP language", found=found, path=clang,
        version=f"Debian packages: configure ported CMake projects with -DCMAKE_TOOLCHAIN_FILE={TOOLCHAIN_FILE}"
        if found else None,
        hint=None if found else f"{DEBIAN_HINT}; libamdhip64-dev for the hip-lang package"))
    return [*statuses, openmp(), *map(linked_library_status, _LINKED)]


# header-only libraries whose HIP ports Debian 12 does not package, by the include folder they need
_HEADER_LIBRARIES = {"thrust": "thrust", "cub": "hipcub"}


def library_headers_hint(families: frozenset[str]) -> str | None:
    """How a ported build reaches rocThrust / hipCUB where the system has none (Debian 12): the
    headers ``cass-lsp setup --only hip-libs`` fetched; None when the tree needs neither or the
    system has them. The CMake toolchain file finds the same folder itself."""
    from cass_lsp.toolchains import hiplibs

    needed = [folder for family, folder in _HEADER_LIBRARIES.items() if family in families]
    if all(any(os.path.isdir(os.path.join(root, folder)) for root in _SYSTEM_INCLUDES) for folder in needed):
        return None  # none needed, or the system has them all
    headers = hiplibs.include_dir("5.2")
    if headers is None:
        return (f"{' and '.join(needed)}: this system has no HIP port of them; fetch their headers with "
                f"{hiplibs.SETUP_HINT} (the CMake toolchain file and hipcc's HIPCC_COMPILE_FLAGS_APPEND then "
                "find them)")
    return (f"{' and '.join(needed)}: this system has no HIP port of them; build a ported Makefile with "
            f"HIPCC_COMPILE_FLAGS_APPEND='-isystem {headers}' make (hipcc reads it; ported for clang: make "
            f"NVCC={HIP_CLANG_WRAPPER} CASS_HIP_LIBRARY_HEADERS={headers}); the CMake toolchain file adds "
            "them itself (CASS_HIP_LIBRARY_HEADERS)")


def make_clang_hint() -> str | None:
    """The compiler a Makefile ported with ``--make-compiler clang`` needs on Debian's packages
    (None on a ROCm install, whose clang finds ROCm by itself)."""
    if os.path.isdir(ROCM_HIP_LANG):
        return None
    return (f"on Debian's ROCm packages, build a Makefile ported for clang with make NVCC={HIP_CLANG_WRAPPER} "
            "(clang-15 with the ROCm paths Debian's packages need)")


_SYSTEM_INCLUDES = ("/opt/rocm/include", "/usr/include")
