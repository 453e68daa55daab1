"""What a CUDA library becomes in a build: the package to find, the CMake target, the link name.

The CUDA side is named by the API tables' library families (``cass_lsp.translate.tables``:
``blas``, ``sparse``, ``rand``, ``solver``, ``fft``, ``dnn``, ``rtc``, ``cub``, ``runtime``,
``driver``); the HIP side follows the source translation's library setting
(:mod:`cass_lsp.translate.libraries`): the hip* layers by default, rocBLAS/rocSPARSE/rocRAND/
rocSOLVER under ``roc`` (``ROC_FAMILIES``), hipFFT in both, MIOpen for cuDNN. Thrust has no family
in the tables (it is a header library both sides); its port, rocThrust, is found when a source
includes ``<thrust/…>``.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from cass_lsp.translate.libraries import ROC_FAMILIES


class Hip(NamedTuple):
    package: str | None  # find_package name; None: part of the hip package
    target: str  # CMake imported target
    link: str  # -l name
    note: str = ""  # why the port can behave differently


_HIP: dict[str, Hip] = {
    "runtime": Hip(None, "hip::host", "amdhip64"),
    "driver": Hip(None, "hip::host", "amdhip64",
                  "the CUDA driver API is part of the HIP runtime library (libamdhip64)"),
    "rtc": Hip("hiprtc", "hiprtc::hiprtc", "hiprtc", "NVRTC becomes hipRTC: compile options and the code "
               "object it returns are AMD's"),
    "blas": Hip("hipblas", "roc::hipblas", "hipblas"),
    "sparse": Hip("hipsparse", "roc::hipsparse", "hipsparse"),
    "rand": Hip("hiprand", "hip::hiprand", "hiprand"),
    "solver": Hip("hipsolver", "roc::hipsolver", "hipsolver"),
    "fft": Hip("hipfft", "hip::hipfft", "hipfft"),
    "cub": Hip("hipcub", "hip::hipcub", "", "hipCUB is header-only on top of rocPRIM"),
    "thrust": Hip("rocthrust", "roc::rocthrust", "", "rocThrust is header-only on top of rocPRIM"),
    "dnn": Hip("miopen", "MIOpen", "MIOpen", "cuDNN becomes MIOpen, whose API differs beyond names"),
    "blasLt": Hip("hipblaslt", "roc::hipblaslt", "hipblaslt", "cuBLASLt becomes hipBLASLt (ROCm 5.7+)"),
    "nvtx": Hip(None, "roctx64", "roctx64", "NVTX ranges become roctracer's roctx (libroctx64)"),
}
FAMILIES = frozenset(_HIP)
"""The library families a build can link (the API tables' families, and ``thrust``, ``blasLt``)."""
_ROC: dict[str, Hip] = {
    "blas": Hip("rocblas", "roc::rocblas", "rocblas"),
    "sparse": Hip("rocsparse", "roc::rocsparse", "rocsparse"),
    "rand": Hip("rocrand", "roc::rocrand", "rocrand"),
    "solver": Hip("rocsolver", "roc::rocsolver", "rocsolver", "rocSOLVER works on a rocBLAS handle"),
}
assert set(_ROC) == ROC_FAMILIES

# CUDA's link names (-l, FindCUDAToolkit's CUDA::<name>) -> family
CUDA_LINK: dict[str, str] = {
    "cudart": "runtime", "cudart_static": "runtime", "cuda": "driver", "cuda_driver": "driver",
    "nvrtc": "rtc", "nvrtc_static": "rtc",
    "cublas": "blas", "cublas_static": "blas", "cublasLt": "blasLt", "cublasLt_static": "blasLt",
    "cusparse": "sparse", "cusparse_static": "sparse", "curand": "rand", "curand_static": "rand",
    "cusolver": "solver", "cusolver_static": "solver", "cufft": "fft", "cufft_static": "fft",
    "cufftw": "fft", "cudnn": "dnn", "nvToolsExt": "nvtx", "nvtx3": "nvtx",
}
DROPPED_LINK: dict[str, str] = {
    "cudadevrt": "clang links relocatable device code itself (-fgpu-rdc at the link)",
    "culibos": "an internal library of CUDA's static libraries",
    "cudart_static": "the HIP runtime is a shared library only: the program links libamdhip64",
}
NVML = ("NVML has no HIP layer; ROCm SMI covers the common queries (header rocm_smi/rocm_smi.h, library "
        "rocm_smi64, Debian: librocm-smi-dev; clocks rsmi_dev_gpu_clk_freq_get, power rsmi_dev_power_ave_get, "
        "temperature rsmi_dev_temp_metric_get, memory rsmi_dev_memory_usage_get): port the calls by hand, "
        "then link rocm_smi64")
UNPORTED_LINK: dict[str, str] = {
    "cupti": "CUPTI has no HIP layer: port profiling to rocprofiler by hand",
    "nvml": NVML,
    "nvidia-ml": NVML,  # NVML's library file, libnvidia-ml.so
    "nvjpeg": "nvJPEG has no HIP port in Debian or ROCm's core (rocJPEG is separate)",
    "npp": "NPP has no HIP port",
}
# FindCUDA's (legacy) result variables -> family
LEGACY_VARIABLES: dict[str, str] = {
    "CUDA_LIBRARIES": "runtime", "CUDA_CUDART_LIBRARY": "runtime", "CUDA_CUDA_LIBRARY": "driver",
    "CUDA_CUBLAS_LIBRARIES": "blas", "CUDA_cublas_LIBRARY": "blas", "CUDA_CUFFT_LIBRARIES": "fft",
    "CUDA_cufft_LIBRARY": "fft", "CUDA_curand_LIBRARY": "rand", "CUDA_cusparse_LIBRARY": "sparse",
    "CUDA_cusolver_LIBRARY": "solver", "CUDA_nvToolsExt_LIBRARY": "nvtx",
    "CUDA_cudadevrt_LIBRARY": "devrt",
}


def hip(family: str, libraries: str) -> Hip:
    """The HIP side of a family under the library setting (``hip`` | ``roc``)."""
    if libraries == "roc" and family in _ROC:
        return _ROC[family]
    return _HIP[family]


def package_of(target: str) -> str | None:
    """The package whose ``find_package`` defines a HIP target (``hip`` for ``hip::host``)."""
    for table in (_HIP, _ROC):
        for h in table.values():
            if h.target == target:
                return h.package or ("hip" if target.startswith("hip::") else None)
    return None


def reverse_link() -> dict[str, str]:
    """HIP link names and targets -> CUDA's, for HIP -> CUDA where the pair is one-to-one."""
    back: dict[str, str] = {}
    for family, cuda in (("runtime", "cudart"), ("blas", "cublas"), ("sparse", "cusparse"), ("rand", "curand"),
                         ("solver", "cusolver"), ("fft", "cufft"), ("rtc", "nvrtc")):
        for libraries in ("hip", "roc"):
            h = hip(family, libraries)
            back[h.link] = cuda
            back[h.target] = f"CUDA::{cuda}"
    return back


_NAME = re.compile(r"\b(?:cu[a-zA-Z]+|nvrtc[A-Za-z]+|nvtx[A-Za-z]+)\b")
_INCLUDE = re.compile(r'^\s*#\s*include\s*[<"](?P<path>[^>"]+)[>"]', re.MULTILINE)
_INCLUDE_FAMILY = {"cub/": "cub", "thrust/": "thrust", "cublasLt.h": "blasLt", "nvToolsExt.h": "nvtx",
                   "nvtx3/": "nvtx", "cufft.h": "fft", "cudnn.h": "dnn", "nvrtc.h": "rtc"}


_CONDITIONAL = re.compile(r"^\s*#\s*(?P<word>if|ifdef|ifndef|elif|else|endif)\b(?P<rest>.*)$")
_DEFINED = re.compile(r"^(?:defined\s*\(\s*(?P<a>\w+)\s*\)|defined\s+(?P<b>\w+))$")
# another header's include guard (_CUFFT_H_, CUBLAS_API_H_, CUSPARSEAPI): a block tested on it
# compiles only where the unit includes that header itself
_GUARD = re.compile(r"^_*[A-Za-z]\w*?(?:_H|_H_|_H__|_HPP_?|API)$")


def outside_guarded_blocks(text: str) -> str:
    """``text`` without the blocks under ``#ifdef`` / ``#if defined(...)`` of another header's
    include guard (``#ifdef _CUFFT_H_``, as a CUDA helper header writes its cuFFT error names):
    they say nothing about what a unit uses. ``#else`` branches stay."""
    kept: list[str] = []
    skipping: list[bool] = []  # per open conditional: its current branch is left out
    for line in text.splitlines():
        directive = _CONDITIONAL.match(line)
        if directive is None:
            if not any(skipping):
                kept.append(line)
            continue
        word, rest = directive.group("word"), directive.group("rest").split("//")[0].strip()
        if word in ("if", "ifdef", "ifndef"):
            tested = _DEFINED.match(rest) if word == "if" else None
            name = rest if word == "ifdef" else (tested.group("a") or tested.group("b")) if tested else ""
            skipping.append(bool(name) and _GUARD.match(name) is not None)
        elif word in ("elif", "else") and skipping:
            skipping[-1] = False
        elif word == "endif" and skipping:
            skipping.pop()
        if not any(skipping):
            kept.append(line)
    return "\n".join(kept)


def families_in_source(text: str) -> set[str]:
    """The library families a CUDA source uses: API names by the tables' family, header-only
    libraries by their includes; a block that compiles only where another header was included
    (:func:`outside_guarded_blocks`) counts for nothing."""
    from cass_lsp.translate import tables

    text = outside_guarded_blocks(text)
    found: set[str] = set()
    for name in set(_NAME.findall(text)):
        row = tables.row(name)
        if row is not None and row.family in _HIP:
            found.add(row.family)
    for match in _INCLUDE.finditer(text):
        path = match.group("path")
        found.update(family for prefix, family in _INCLUDE_FAMILY.items() if path.startswith(prefix))
    return found
