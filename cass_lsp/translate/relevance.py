"""Whether a file uses the source API at all: code that does not is not the translation's business.

A multi-model project keeps OpenMP, SYCL, Kokkos, RAJA, TBB and std::par sources beside its CUDA
ones; translating them can only report what the CUDA grammar cannot read (``parse-error`` by the
dozen on SYCL's lambdas and Kokkos's macros). A file uses the source API when, outside comments
and strings (inside them too when they are to be rewritten), it names something the tables or the
rules translate, a device keyword (``__global__``, ``threadIdx``, ...) or a ``<<<`` launch, or when
it includes a header of the source platform (one the tables map, or Thrust's, NVIDIA libraries', a
``.cu``/``.cuh`` file). A few table names are also plain C++ or other models' spellings
(``register``, ``asm``, ``texture``, OpenCL's ``cl_event_flags``, SYCL's ``float4``): alone, they
do not make a file CUDA or HIP.
"""

from __future__ import annotations

import re
from collections.abc import Callable

# Words that alone say nothing about the platform: C++ keywords and other models' spellings.
_GENERIC = frozenset(w.encode() for w in (
    "register", "asm", "__asm__", "__asm", "texture", "surface", "cuda", "hip", "saturate", "memoryBarrier",
    "cl_context_flags", "cl_context_flags_enum", "cl_event_flags", "cl_event_flags_enum"))
# Device-code words of CUDA and HIP alike (the tables hold API names, not these).
DEVICE_WORDS = frozenset(w.encode() for w in (
    "__global__", "__device__", "__host__", "__shared__", "__constant__", "__managed__", "__launch_bounds__",
    "__forceinline__", "__noinline__", "threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize",
    "__syncthreads", "dim3"))
_OPAQUE = rb'(?s)//[^\n]*|/\*.*?(?:\*/|\Z)|"(?:\\.|[^"\\\n])*"?|\'(?:\\.|[^\'\\\n])*\'?'
_INCLUDE = rb'(?m)^[ \t]*#[ \t]*include[ \t]*[<"]([^>"\r\n]+)[>"]'
# Headers of NVIDIA's toolkit the tables do not map (Thrust is rocThrust's too) and project CUDA files.
_CUDA_HEADER = (rb"(?:thrust|cub|cuda|nv|nvtx3|cooperative_groups|cutlass|cute)/|(?:^|/)(?:cuda\w*|cublas\w*"
                rb"|cusparse\w*|cufft\w*|curand\w*|cusolver\w*|cudnn\w*|cutensor\w*|nvml|nvrtc\w*|nvToolsExt\w*"
                rb"|npp\w*|nccl|helper_cuda\w*)\.h(?:pp)?$|\.cuh?$")
_HIP_HEADER = rb"(?:hip|hipcub|hipblas|hipsparse|hipfft|hiprand|hipsolver|rocprim|rocthrust|rocrand)/|\.hip$"
_WORD_BYTES = bytes(b if (48 <= b < 58 or 65 <= b < 91 or 97 <= b < 123 or b == 95 or b >= 128) else 32
                    for b in range(256))


def uses_api(source: bytes, names: frozenset[bytes], maps_header: Callable[[str], bool], *, reverse: bool,
             in_comments_too: bool) -> bool:
    """Whether ``source`` uses the source platform: a name of ``names`` (what the engine acts on in
    this direction) or a device word in code, a launch, or a header ``maps_header`` knows."""
    source = source.removeprefix(b"\xef\xbb\xbf")  # a BOM would join the first word
    header = re.compile(_HIP_HEADER if reverse else _CUDA_HEADER)
    for m in re.compile(_INCLUDE).finditer(source):
        path = m[1].decode("utf-8", "surrogateescape")
        if header.search(m[1]) is not None or maps_header(path):
            return True
    if _names_code(source, names):
        if in_comments_too:
            return True
        return _names_code(re.compile(_OPAQUE).sub(b" ", source), names)
    return False


def _names_code(text: bytes, names: frozenset[bytes]) -> bool:
    if b"<<<" in text:
        return True
    words = set(text.translate(_WORD_BYTES).split())
    return not words.isdisjoint(DEVICE_WORDS) or any(w not in _GENERIC for w in words & names)
