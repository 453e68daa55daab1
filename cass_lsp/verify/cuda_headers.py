"""Which headers are CUDA's: a header of the CUDA toolkit or of a CUDA library that a translation
still includes is the translation's defect (clang for HIP has none of them), while any other
header clang cannot find (``omp.h``, a HIP library's) is missing from this machine.

:data:`TOOLKIT` is the complete top level of the CUDA 13.0 toolkit's include folder as the NVIDIA
wheels install it (nvidia-cuda-runtime, -crt, -cccl, -nvcc, -cupti, -nvtx, -nvvm, -profiler-api
13.0.x: ``ls $(dirname $(readlink -f nvcc))/../include``) and of its ``cccl/`` folder, which nvcc
searches too (``thrust/``, ``cub/``, ``cuda/``); ``tests/unit/test_verify_cuda_headers.py`` checks
it against the installed nvcc's folder. The CUDA libraries outside those wheels (cuBLAS, cuFFT,
cuRAND, cuSPARSE, cuSOLVER, NVRTC, cuDNN, NPP, nvJPEG, ...) are named by their prefixes.
"""

from __future__ import annotations

import re

TOOLKIT = frozenset({
    "Openacc", "Openmp", "builtin_types.h", "cccl", "channel_descriptor.h", "common_functions.h",
    "cooperative_groups", "cooperative_groups.h", "crt", "cuComplex.h", "cuda.h", "cudaEGL.h", "cudaEGLTypedefs.h",
    "cudaGL.h", "cudaGLTypedefs.h", "cudaProfiler.h", "cudaProfilerTypedefs.h", "cudaTypedefs.h", "cudaVDPAU.h",
    "cudaVDPAUTypedefs.h", "cuda_awbarrier.h", "cuda_awbarrier_helpers.h", "cuda_awbarrier_primitives.h",
    "cuda_bf16.h", "cuda_bf16.hpp", "cuda_device_runtime_api.h", "cuda_egl_interop.h", "cuda_fp16.h",
    "cuda_fp16.hpp", "cuda_fp4.h", "cuda_fp4.hpp", "cuda_fp6.h", "cuda_fp6.hpp", "cuda_fp8.h", "cuda_fp8.hpp",
    "cuda_gl_interop.h", "cuda_occupancy.h", "cuda_pipeline.h", "cuda_pipeline_helpers.h",
    "cuda_pipeline_primitives.h", "cuda_profiler_api.h", "cuda_runtime.h", "cuda_runtime_api.h", "cuda_stdint.h",
    "cuda_vdpau_interop.h", "cudart_platform.h", "cupti.h", "cupti_activity.h", "cupti_activity_deprecated.h",
    "cupti_callbacks.h", "cupti_checkpoint.h", "cupti_common.h", "cupti_driver_cbid.h", "cupti_events.h",
    "cupti_metrics.h", "cupti_nvtx_cbid.h", "cupti_pcsampling.h", "cupti_pcsampling_util.h", "cupti_pmsampling.h",
    "cupti_profiler_host.h", "cupti_profiler_target.h", "cupti_range_profiler.h", "cupti_result.h",
    "cupti_runtime_cbid.h", "cupti_sass_metrics.h", "cupti_target.h", "cupti_version.h",
    "device_atomic_functions.h", "device_atomic_functions.hpp", "device_double_functions.h", "device_functions.h",
    "device_launch_parameters.h", "device_types.h", "driver_functions.h", "driver_types.h", "fatbinary_section.h",
    "generated_cudaGL_meta.h", "generated_cudaVDPAU_meta.h", "generated_cuda_gl_interop_meta.h",
    "generated_cuda_meta.h", "generated_cuda_runtime_api_meta.h", "generated_cuda_vdpau_interop_meta.h",
    "generated_cudart_removed_meta.h", "generated_nvtx_meta.h", "host_config.h", "host_defines.h",
    "library_types.h", "math_constants.h", "math_functions.h", "mma.h", "nv", "nv_decode.h", "nvperf_common.h",
    "nvperf_cuda_host.h", "nvperf_host.h", "nvperf_target.h", "nvtx3", "nvvm.h", "sm_20_atomic_functions.h",
    "sm_20_atomic_functions.hpp", "sm_20_intrinsics.h", "sm_20_intrinsics.hpp", "sm_30_intrinsics.h",
    "sm_30_intrinsics.hpp", "sm_32_atomic_functions.h", "sm_32_atomic_functions.hpp", "sm_32_intrinsics.h",
    "sm_32_intrinsics.hpp", "sm_35_atomic_functions.h", "sm_35_intrinsics.h", "sm_60_atomic_functions.h",
    "sm_60_atomic_functions.hpp", "sm_61_intrinsics.h", "sm_61_intrinsics.hpp", "surface_indirect_functions.h",
    "surface_types.h", "texture_indirect_functions.h", "texture_types.h", "vector_functions.h",
    "vector_functions.hpp", "vector_types.h"
})
"""The top-level files and folders of CUDA 13.0's ``include/``."""
CCCL = frozenset({"cub", "cuda", "nv", "thrust"})
"""The folders of ``include/cccl/`` (CUDA 13's Thrust, CUB and libcu++), included without ``cccl/``."""
# the CUDA libraries' own headers (cublas_v2.h, cufftXt.h, curand_kernel.h, nvrtc.h, cudnn.h, npp.h,
# nvjpeg.h), and those of older toolkits named as these are (cuda_texture_types.h, sm_35_*.h)
_LIBRARY = re.compile(r"^(?:cuda|cu[a-z]+[._]|nv|npp|sm_\d)", re.I)


def is_cuda_header(header: str) -> bool:
    """``header`` as an ``#include`` names it (``builtin_types.h``, ``thrust/sort.h``) is CUDA's."""
    top = header.split("/", 1)[0]
    return top in TOOLKIT or top in CCCL or _LIBRARY.match(header) is not None
