"""CUDA <-> HIP include mappings, written by hand (the HIPIFY tables have none).

Library headers moved to ``<lib>/<lib>.h`` in ROCm 5.2's file reorganisation (Debian 12's
libhipsparse-dev 5.3 installs only ``hipsparse/hipsparse.h``); older ROCm has ``<lib>.h``.
"""

from __future__ import annotations

from typing import NamedTuple

_NEW_LAYOUT = (5, 2)


class HeaderRule(NamedTuple):
    hip: str  # "" when HIP has no equivalent
    legacy: str = ""  # path before ROCm 5.2, when it differs
    since: tuple[int, int] = (0, 0)  # first ROCm with the header
    family: str = "runtime"
    note: str = ""


RUNTIME = "hip/hip_runtime.h"
_NO_LIBCUXX = "HIP has no libcu++ (cuda::std, cuda::barrier, cuda::pipeline)"
_ROCTX = "roctracer/roctx.h"

_EXACT: dict[str, HeaderRule] = {
    "cuda_runtime.h": HeaderRule(RUNTIME),
    "cuda.h": HeaderRule(RUNTIME, family="driver"),
    "cuda_runtime_api.h": HeaderRule("hip/hip_runtime_api.h"),
    # CUDA's device, driver, surface, texture and vector types (the driver-API samples include it
    # beside cuda.h): hip_runtime.h declares all of them
    "builtin_types.h": HeaderRule(RUNTIME),
    "device_launch_parameters.h": HeaderRule(RUNTIME),
    "device_functions.h": HeaderRule(RUNTIME, family="device"),
    "math_functions.h": HeaderRule(RUNTIME, family="device"),
    "sm_20_atomic_functions.h": HeaderRule(RUNTIME, family="device"),
    "sm_32_intrinsics.h": HeaderRule(RUNTIME, family="device"),
    "sm_60_atomic_functions.h": HeaderRule(RUNTIME, family="device"),
    "cuda_profiler_api.h": HeaderRule("hip/hip_runtime_api.h"),
    "cuda_fp16.h": HeaderRule("hip/hip_fp16.h", family="device"),
    "cuda_fp16.hpp": HeaderRule("hip/hip_fp16.h", family="device"),
    "cuda_bf16.h": HeaderRule("hip/hip_bfloat16.h", family="device"),
    "cooperative_groups.h": HeaderRule("hip/hip_cooperative_groups.h", family="device"),
    "cuComplex.h": HeaderRule("hip/hip_complex.h", family="complex"),
    "vector_types.h": HeaderRule("hip/hip_vector_types.h"),
    "vector_functions.h": HeaderRule("hip/hip_vector_types.h"),
    "driver_types.h": HeaderRule("hip/driver_types.h"),
    "texture_types.h": HeaderRule("hip/texture_types.h"),
    "cuda_texture_types.h": HeaderRule("hip/hip_texture_types.h"),
    "surface_types.h": HeaderRule("hip/surface_types.h"),
    "channel_descriptor.h": HeaderRule("hip/channel_descriptor.h"),
    "library_types.h": HeaderRule("hip/library_types.h"),
    "math_constants.h": HeaderRule("hip/hip_math_constants.h", since=(6, 0), family="device"),
    "nvrtc.h": HeaderRule("hip/hiprtc.h", family="rtc"),
    "cublas_v2.h": HeaderRule("hipblas/hipblas.h", "hipblas.h", family="blas"),
    "cublas.h": HeaderRule("hipblas/hipblas.h", "hipblas.h", family="blas"),
    "cublas_api.h": HeaderRule("hipblas/hipblas.h", "hipblas.h", family="blas"),
    "cublasLt.h": HeaderRule("hipblaslt/hipblaslt.h", since=(5, 7), family="blas"),
    "curand.h": HeaderRule("hiprand/hiprand.h", "hiprand.h", family="rand"),
    "curand_kernel.h": HeaderRule("hiprand/hiprand_kernel.h", "hiprand_kernel.h", family="rand"),
    "curand_mtgp32_host.h": HeaderRule("hiprand/hiprand_mtgp32_host.h", "hiprand_mtgp32_host.h",
                                       family="rand"),
    "cufft.h": HeaderRule("hipfft/hipfft.h", "hipfft.h", family="fft"),
    "cufftXt.h": HeaderRule("hipfft/hipfftXt.h", "hipfftXt.h", family="fft"),
    "cusparse.h": HeaderRule("hipsparse/hipsparse.h", "hipsparse.h", family="sparse"),
    "cusparse_v2.h": HeaderRule("hipsparse/hipsparse.h", "hipsparse.h", family="sparse"),
    "cusolverDn.h": HeaderRule("hipsolver/hipsolver.h", "hipsolver.h", family="solver"),
    "cusolverSp.h": HeaderRule("hipsolver/hipsolver.h", "hipsolver.h", family="solver"),
    "cusolverRf.h": HeaderRule("hipsolver/hipsolver.h", "hipsolver.h", family="solver"),
    "cusolver_common.h": HeaderRule("hipsolver/hipsolver.h", "hipsolver.h", family="solver"),
    "nccl.h": HeaderRule("rccl/rccl.h", "rccl.h"),
    # absent from Debian's HIP 5.2 headers; in HIP 6.2's (and 7.1 reads 6.2's; its subset has the amd_detail part)
    "cuda_gl_interop.h": HeaderRule("hip/hip_gl_interop.h", since=(6, 2)),
    "cudnn.h": HeaderRule("", family="dnn", note="MIOpen (miopen/miopen.h) has a different API"),
    "cublasXt.h": HeaderRule("", family="blas", note="hipBLAS has no multi-GPU Xt API"),
    "mma.h": HeaderRule("", family="device", note="nvcuda::wmma maps to rocWMMA, which differs"),
    "cuda_fp8.h": HeaderRule("", family="device"),
    "cuda_occupancy.h": HeaderRule(""),
    "cuda_pipeline.h": HeaderRule("", family="device"),
    "cuda_awbarrier.h": HeaderRule("", family="device"),
    # HIP's cooperative groups have no cg::reduce: a compatibility helper defines it (translate.groups)
    "cooperative_groups/reduce.h": HeaderRule("hip/hip_cooperative_groups.h", family="device"),
    "cooperative_groups/memcpy_async.h": HeaderRule("", family="device"),
    "nvml.h": HeaderRule("", note="ROCm SMI (rocm_smi/rocm_smi.h, library rocm_smi64, Debian: librocm-smi-dev) "
                         "covers the common queries under other names: rsmi_dev_gpu_clk_freq_get, "
                         "rsmi_dev_power_ave_get, rsmi_dev_temp_metric_get; port the calls by hand"),
    # markers and ranges have roctx twins (the API tables' nvtx rows); the rest are findings there
    "nvToolsExt.h": HeaderRule(_ROCTX, family="nvtx"),
    "nvtx3/nvToolsExt.h": HeaderRule(_ROCTX, family="nvtx"),
    # its naming calls become a helper that drops the name (translate.nvtx)
    "nvToolsExtCudaRt.h": HeaderRule(_ROCTX, family="nvtx"),
    "nvtx3/nvToolsExtCudaRt.h": HeaderRule(_ROCTX, family="nvtx"),
}

# A header a newer ROCm replaced: (its path, the first ROCm with it). hip_bf16.h's __hip_bfloat16 has
# CUDA's bfloat16 functions (cass_lsp.translate.bfloat16); hip_bfloat16.h's struct has none.
_NEWER: dict[str, tuple[str, tuple[int, int]]] = {"cuda_bf16.h": ("hip/hip_bf16.h", (6, 0))}

# Reverse direction: every HIP spelling (both layouts) -> the CUDA header.
_REVERSE: dict[str, str] = {
    RUNTIME: "cuda_runtime.h",
    "hip/hip_runtime_api.h": "cuda_runtime_api.h",
    "hip/hip_fp16.h": "cuda_fp16.h",
    "hip/hip_bfloat16.h": "cuda_bf16.h",
    "hip/hip_bf16.h": "cuda_bf16.h",
    "hip/hip_cooperative_groups.h": "cooperative_groups.h",
    "hip/hip_complex.h": "cuComplex.h",
    "hip/hip_vector_types.h": "vector_types.h",
    "hip/driver_types.h": "driver_types.h",
    "hip/texture_types.h": "texture_types.h",
    "hip/hip_texture_types.h": "cuda_texture_types.h",
    "hip/surface_types.h": "surface_types.h",
    "hip/channel_descriptor.h": "channel_descriptor.h",
    "hip/library_types.h": "library_types.h",
    "hip/hip_math_constants.h": "math_constants.h",
    "hip/hiprtc.h": "nvrtc.h",
    "hipblas/hipblas.h": "cublas_v2.h",
    "hipblas.h": "cublas_v2.h",
    "hipblaslt/hipblaslt.h": "cublasLt.h",
    "hiprand/hiprand.h": "curand.h",
    "hiprand.h": "curand.h",
    "hiprand/hiprand_kernel.h": "curand_kernel.h",
    "hiprand_kernel.h": "curand_kernel.h",
    "hipfft/hipfft.h": "cufft.h",
    "hipfft.h": "cufft.h",
    "hipfft/hipfftXt.h": "cufftXt.h",
    "hipsparse/hipsparse.h": "cusparse.h",
    "hipsparse.h": "cusparse.h",
    "hipsolver/hipsolver.h": "cusolverDn.h",
    "hipsolver.h": "cusolverDn.h",
    "hipcub/hipcub.hpp": "cub/cub.cuh",
    "rccl/rccl.h": "nccl.h",
    "rccl.h": "nccl.h",
    _ROCTX: "nvtx3/nvToolsExt.h",
}


class HeaderMapping(NamedTuple):
    path: str  # "" when there is no equivalent for the target
    family: str
    reason: str  # why path is empty


def is_runtime_header(path: str) -> bool:
    return path in (RUNTIME, "hip/hip_runtime_api.h")


def forward(cuda_path: str, rocm: tuple[int, int]) -> HeaderMapping | None:
    """The HIP include for a CUDA include path, or None when the path is not a CUDA header."""
    if cuda_path.startswith("cub/"):
        return HeaderMapping("hipcub/hipcub.hpp", "cub", "")
    if cuda_path.startswith("thrust/system/cuda/"):
        return HeaderMapping("thrust/system/hip/" + cuda_path[len("thrust/system/cuda/"):], "runtime", "")
    if cuda_path.startswith(("cuda/", "nv/")):
        return HeaderMapping("", "runtime", _NO_LIBCUXX)
    rule = _EXACT.get(cuda_path)
    if rule is None:
        return None
    if not rule.hip:
        return HeaderMapping("", rule.family, rule.note or "HIP has no equivalent header")
    if rocm < rule.since:
        return HeaderMapping("", rule.family, f"{rule.hip} needs ROCm {rule.since[0]}.{rule.since[1]} or newer")
    if cuda_path in _NEWER and rocm >= _NEWER[cuda_path][1]:
        return HeaderMapping(_NEWER[cuda_path][0], rule.family, "")
    path = rule.legacy if rule.legacy and rocm < _NEW_LAYOUT else rule.hip
    return HeaderMapping(path, rule.family, "")


def reverse(hip_path: str) -> str | None:
    if hip_path.startswith("thrust/system/hip/"):
        return "thrust/system/cuda/" + hip_path[len("thrust/system/hip/"):]
    if hip_path.startswith("hipcub/"):
        return "cub/cub.cuh"
    return _REVERSE.get(hip_path)
