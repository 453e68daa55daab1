"""Compatibility helpers: small, well-defined gaps of the target, filled in the translation.

When the program needs a function the target lacks and the gap is a few lines of code that can
only be written one way, the translation calls a helper and defines it once per translation unit:
guarded by ``#ifndef CASS_...`` (a header that is included twice, or two translated headers that
both need it, define it once) and marked with a ``// cass: compatibility helper`` comment. The
cases (README, "Compatibility helpers"):

* CUDA -> ROCm before 6.0: ``cusparseGetErrorString`` / ``cusparseGetErrorName``, which hipSPARSE
  gained in 6.0, become ``cass_hipsparseGetErrorString`` / ``cass_hipsparseGetErrorName``.
* HIP -> CUDA: ``atomicMin``/``atomicMax`` on ``float``/``double``, which HIP declares and CUDA
  does not, get CUDA overloads (compare-and-swap loops, as HIP's own before ROCm 6).
* HIP -> CUDA 12.8+: ``__atomic_load_n`` in device code becomes CUDA's ``__nv_atomic_load_n``
  (which takes no pointer to const: ``cass_unconst`` drops it).
* HIP -> CUDA: the arithmetic and comparison operators a file applies to HIP's vector types
  (``float4 + float4``, ``float4 * float``, ``==``), which CUDA's structs lack, and the one-scalar
  construction ``float4(f(x))`` as ``cass_splat_float4(f(x))``, which evaluates ``f(x)`` once (:mod:`.vectors`).
* CUDA -> HIP: ``__CUDA_ARCH__`` read as a value (``#if __CUDA_ARCH__ >= 700``, ``v = __CUDA_ARCH__``)
  becomes ``CASS_CUDA_ARCH``, defined on the device pass only (as nvcc defines ``__CUDA_ARCH__``) to
  :data:`CUDA_ARCH_LEVEL`, unless the build defines it (``portability.cuda_arch``).
* CUDA -> HIP: the cache-hinted loads and stores (``__ldcs``, ``__ldcg``, ``__stcs``, ``__stcg``, ...),
  which HIP has only for ``__half``, become ``cass_ldcs``, ... templates for any type: a plain load
  or store (the hint is dropped; the value is the same).
* HIP -> CUDA 13+: ``hipDeviceProp_t`` fields CUDA 13 removed (``clockRate``, ``computeMode``, ...)
  are read with ``cudaDeviceGetAttribute`` through ``cass_device_attribute``.
* CUDA -> ROCm before 6.0: ``cudaDeviceProp`` fields HIP 5's ``hipDeviceProp_t`` lacks but its
  ``hipDeviceAttribute_t`` has (``unifiedAddressing``, ``asyncEngineCount``, ...) are read with
  ``hipDeviceGetAttribute`` through ``cass_hip_device_attribute``.
* CUDA -> HIP: ``umin``/``umax``, ``llmin``/``llmax``, ``ullmin``/``ullmax`` (CUDA's integer
  min/max, host and device), which HIP lacks, become ``cass_umin``, ... functions.
* CUDA -> HIP: ``atomicInc_system``/``atomicDec_system`` become ``cass_atomicInc_system``, ...
  (``atomicCAS_system`` loops); the ``_block`` atomics become the device-scope ones, without a helper.
* CUDA -> HIP: ``CUDART_VERSION``/``CUDA_VERSION`` read ``CASS_CUDART_VERSION``/``CASS_CUDA_VERSION``, the
  original's CUDA version (``portability.version_macro``).
* CUDA -> HIP: directed rounding (``__fadd_rd``, ...: :mod:`.rounding`), ``cg::reduce`` and
  ``meta_group_rank`` before ROCm 6.2 (:mod:`.groups`), NVTX's event attributes and naming calls (:mod:`.nvtx`).

Other gaps are rewritten in place, without a helper: ``__syncwarp`` before ROCm 7 (the expression
HIP 7 defines it as, see ``warp.SYNCWARP_EXPR``), the typed ``cudaHostAlloc``/``cudaMallocHost``
overloads (a ``void**`` cast, ``calls.WRAPPED_ARGUMENT``), ``HIP_DYNAMIC_SHARED`` and
``hipMallocHost`` in the reverse direction (:func:`reverse_dynamic_shared`, :data:`REVERSE_RENAMES`).
"""

from __future__ import annotations

import re
from typing import NamedTuple, Protocol

import tree_sitter

from cass_lsp.syntax import nodes
from cass_lsp.translate import codes as fc
from cass_lsp.translate import groups, nvtx, rounding, vectors
from cass_lsp.translate.context import RuleContext


class Helper(NamedTuple):
    guard: str  # the #ifndef macro
    why: str  # the marker comment's reason
    code: str  # the definitions, one per line


class HelperContext(RuleContext, Protocol):
    def need_helper(self, key: str, start: int) -> None:
        """Define helper ``key`` in this translation unit, before local offset ``start``."""


_SPARSE_STATUS = ("SUCCESS", "NOT_INITIALIZED", "ALLOC_FAILED", "INVALID_VALUE", "ARCH_MISMATCH", "MAPPING_ERROR",
                  "EXECUTION_FAILED", "INTERNAL_ERROR", "MATRIX_TYPE_NOT_SUPPORTED", "ZERO_PIVOT", "NOT_SUPPORTED",
                  "INSUFFICIENT_RESOURCES")  # every hipsparseStatus_t of ROCm 5.x


def _sparse_strings() -> str:
    # The names, as hipSPARSE 6's hipsparseGetErrorName returns them; the descriptions CUDA's
    # cusparseGetErrorString returns are not in any ROCm 5 header, so both helpers return the name.
    cases = "".join(f"    case HIPSPARSE_STATUS_{s}: return \"HIPSPARSE_STATUS_{s}\";\n" for s in _SPARSE_STATUS)
    switch = f"  switch (status) {{\n{cases}  }}\n  return \"HIPSPARSE_STATUS_UNKNOWN\";\n"
    return (f"static inline const char* cass_hipsparseGetErrorName(hipsparseStatus_t status) {{\n{switch}}}\n"
            "static inline const char* cass_hipsparseGetErrorString(hipsparseStatus_t status) {\n"
            "  return cass_hipsparseGetErrorName(status);\n}\n")


# CUDA 13's cuCtxCreate (12.5's cuCtxCreate_v4) takes a CUctxCreateParams* (execution affinity, CIG)
# before the flags; HIP's hipCtxCreate takes (ctx, flags, device). A translation passes the other
# three and declares the struct (a helper), so that code filling it still compiles; empty parameters
# (NVIDIA's samples: `CUctxCreateParams p = {};`) mean the context CUDA 12's cuCtxCreate made.
CONTEXT_CREATE = frozenset({"cuCtxCreate", "cuCtxCreate_v4", "CUctxCreateParams"})
CONTEXT_PARAMS = "cass_CUctxCreateParams"
CONTEXT_PARAMS_HELPER = "context-create-params"

# min/max of a thread coordinate: CUDA's blockDim.x is an unsigned int, HIP's a proxy object that converts
# to one, so HIP's overloads (T, T), (int, int), (uint32_t, int), float, double are all as good for
# min(unsigned, blockDim.x) and clang calls it ambiguous (cuda-samples' eigenvalues). The coordinate
# converted first is CUDA's type, which keeps the overload CUDA picks.
COORDINATE_MINMAX = frozenset({"min", "max"})
_COORDINATE = re.compile(r"(?:threadIdx|blockIdx|blockDim|gridDim)\s*\.\s*[xyz]")


def coordinate_minmax(p: RuleContext, node: tree_sitter.Node) -> bool:
    """``min(n, blockDim.x)`` -> ``min(n, (unsigned int)blockDim.x)``; False: the name needs nothing else."""
    call = p.call_of(node)
    if call is not None and p.inside(call):
        for arg in p.arguments(call):
            if _COORDINATE.fullmatch(p.text(arg).strip()):
                p.edit(arg.start_byte, arg.start_byte, "(unsigned int)", "device")
    return False


# The driver API's error strings (helper_cuda_drvapi.h's checkCudaErrors calls cuGetErrorString):
# CUresult is hipError_t in HIP, whose runtime strings name the same codes. CUDA sets NULL and returns
# CUDA_ERROR_INVALID_VALUE for a code it does not know; HIP's runtime names it "unknown error".
DRV_ERROR_STRINGS_HELPER = "hip-drv-error-strings"


def _drv_strings() -> str:
    return "".join(f"static inline hipError_t cass_hipDrvGetError{what}(hipError_t error, const char** text) {{\n"
                   f"  *text = hipGetError{what}(error);\n  return hipSuccess;\n}}\n" for what in ("Name", "String"))


def _atomic_minmax() -> str:
    out = []
    for t, bits, as_int, from_int in (("float", "int", "__float_as_int", "__int_as_float"),
                                      ("double", "unsigned long long", "__double_as_longlong",
                                       "__longlong_as_double")):
        cast = "(unsigned long long)" if t == "double" else ""
        for name, pick in (("atomicMin", "fmin"), ("atomicMax", "fmax")):
            out.append(
                f"__device__ inline {t} {name}({t}* address, {t} val) {{\n"
                f"  {bits}* word = reinterpret_cast<{bits}*>(address);\n"
                f"  {bits} old = *word, assumed;\n"
                f"  do {{\n    assumed = old;\n"
                f"    old = atomicCAS(word, assumed, {cast}{as_int}({pick}(val, {from_int}(assumed))));\n"
                f"  }} while (assumed != old);\n  return {from_int}(old);\n}}\n")
    return "".join(out)


# Removed cudaDeviceProp fields (CUDA 13) -> the device attribute that still reads them.
REMOVED_PROP_FIELDS = {
    "clockRate": "cudaDevAttrClockRate",
    "memoryClockRate": "cudaDevAttrMemoryClockRate",
    "computeMode": "cudaDevAttrComputeMode",
    "kernelExecTimeoutEnabled": "cudaDevAttrKernelExecTimeout",
    "deviceOverlap": "cudaDevAttrGpuOverlap",
    "maxTexture1DLinear": "cudaDevAttrMaxTexture1DLinearWidth",
    "singleToDoublePrecisionPerfRatio": "cudaDevAttrSingleToDoublePrecisionPerfRatio",
}
_PROP_FIELDS_REMOVED_IN = (13, 0)
# cudaDeviceProp fields that hipDeviceProp_t gained only with ROCm 6.0 (its R0600 layout; HIP 5.x's
# struct lacks them) -> what reads the value on an older target ("": only a newer ROCm has it).
_HIP_PROP_FIELDS_SINCE = (6, 0)
_ATTRIBUTE = "hipDeviceGetAttribute(&value, {}, device)"
# Those of them the HIP 5.2 headers' hipDeviceAttribute_t has: a read becomes the attribute query.
PROP_ATTRIBUTES = {
    "regsPerMultiprocessor": "hipDeviceAttributeMaxRegistersPerMultiprocessor",
    "maxBlocksPerMultiProcessor": "hipDeviceAttributeMaxBlocksPerMultiProcessor",
    "asyncEngineCount": "hipDeviceAttributeAsyncEngineCount",
    "unifiedAddressing": "hipDeviceAttributeUnifiedAddressing",
    "streamPrioritiesSupported": "hipDeviceAttributeStreamPrioritiesSupported",
}
HIP_DEVICE_ATTRIBUTE = "cass_hip_device_attribute"
HIP_DEVICE_ATTRIBUTE_HELPER = "hip-device-attribute"
NEWER_PROP_FIELDS: dict[str, str] = {
    "sharedMemPerBlockOptin": f"sharedMemPerBlock, or "
                              f"{_ATTRIBUTE.format('hipDeviceAttributeSharedMemPerBlockOptin')}",
    "sharedMemPerMultiprocessor": "maxSharedMemoryPerMultiProcessor",
    **{field: _ATTRIBUTE.format(attribute) for field, attribute in PROP_ATTRIBUTES.items()},
    **dict.fromkeys((
        "accessPolicyMaxWindowSize", "canUseHostPointerForRegisteredMem", "computePreemptionSupported",
        "globalL1CacheSupported", "localL1CacheSupported", "hostNativeAtomicSupported", "hostRegisterSupported",
        "hostRegisterReadOnlySupported", "ipcEventSupported", "luidDeviceNodeMask", "memoryPoolsSupported",
        "memoryPoolSupportedHandleTypes", "multiGpuBoardGroupID", "persistingL2CacheMaxSize",
        "reservedSharedMemPerBlock", "surfaceAlignment", "timelineSemaphoreInteropSupported",
        "unifiedFunctionPointers", "gpuDirectRDMASupported", "gpuDirectRDMAWritesOrdering",
        "gpuDirectRDMAFlushWritesOptions", "maxTexture1DMipmap", "maxTexture1DLayered", "maxTexture2DMipmap",
        "maxTexture2DLinear", "maxTexture2DGather", "maxTexture2DLayered", "maxTexture3DAlt", "maxTextureCubemap",
        "maxTextureCubemapLayered", "maxSurface1D", "maxSurface2D", "maxSurface3D", "maxSurface1DLayered",
        "maxSurface2DLayered", "maxSurfaceCubemap", "maxSurfaceCubemapLayered"), ""),
}
_NV_ATOMICS_SINCE = (12, 8)

# What __CUDA_ARCH__ reads on AMD: Pascal's level. Every AMD GPU HIP compiles for has what CUDA code
# guards with 600 or less (half arithmetic 530, double atomicAdd 600, __ldg 350, warp shuffles 300);
# what 700 and up guard is NVIDIA's alone (independent thread scheduling, wmma/mma tensor cores,
# cp.async and other PTX of newer GPUs, __reduce_*_sync), so such branches must read false.
CUDA_ARCH_LEVEL = 600
CUDA_ARCH_MACRO = "CASS_CUDA_ARCH"
CUDA_ARCH_HELPER = "cuda-arch"

# NVIDIA's cache-hinted loads and stores (PTX ld.cs, st.cg, ...): the hints have no HIP spelling for
# any type but __half, and dropping them keeps the value
CACHE_LOADS = ("__ldcs", "__ldcg", "__ldca", "__ldcv", "__ldlu")
CACHE_STORES = ("__stcs", "__stcg", "__stwb", "__stwt")
CACHE_HINT_HELPER = "cache-hints"
CACHE_HINT_PREFIX = "cass_"


def _cache_hints() -> str:
    loads = "".join(f"template <typename T> __device__ inline T {CACHE_HINT_PREFIX}{n[2:]}(const T* p) {{ return *p; }}\n"
                    for n in CACHE_LOADS)
    stores = "".join(f"template <typename T> __device__ inline void {CACHE_HINT_PREFIX}{n[2:]}(T* p, T v) {{ *p = v; }}\n"
                     for n in CACHE_STORES)
    return loads + stores


# CUDA's integer min/max (host and device functions of its math headers): HIP declares none of them,
# and its min/max templates would deduce a mixed call (unsigned, int) as int
INTEGER_MINMAX = {"umin": "unsigned int", "umax": "unsigned int", "llmin": "long long int",
                  "llmax": "long long int", "ullmin": "unsigned long long int", "ullmax": "unsigned long long int"}
INTEGER_MINMAX_HELPER = "integer-minmax"


def _integer_minmax() -> str:
    return "".join(f"__host__ __device__ inline {t} cass_{name}({t} a, {t} b) "
                   f"{{ return a {'<' if name.endswith('min') else '>'} b ? a : b; }}\n"
                   for name, t in INTEGER_MINMAX.items())


# CUDA's scoped atomics: the _block forms are the device-scope atomic in HIP (a wider scope is a valid
# implementation of a narrower one; HIP 5.2 has no _block forms), and the _system forms HIP lacks
# are compare-and-swap loops on atomicCAS_system, with CUDA's wrap-around semantics.
_BLOCK_ATOMICS = ("atomicAdd", "atomicSub", "atomicExch", "atomicMin", "atomicMax", "atomicInc", "atomicDec",
                  "atomicCAS", "atomicAnd", "atomicOr", "atomicXor")
SCOPED_ATOMICS = frozenset({*(f"{a}_block" for a in _BLOCK_ATOMICS), "atomicInc_system", "atomicDec_system"})
SYSTEM_ATOMICS_HELPER = "system-atomics"


def _system_atomics() -> str:
    out = []
    for name, new in (("atomicInc", "assumed >= val ? 0u : assumed + 1u"),
                      ("atomicDec", "(assumed == 0u || assumed > val) ? val : assumed - 1u")):
        out.append(f"__device__ inline unsigned int cass_{name}_system(unsigned int* address, unsigned int val) {{\n"
                   "  unsigned int old = *address, assumed;\n"
                   f"  do {{\n    assumed = old;\n    old = atomicCAS_system(address, assumed, {new});\n"
                   "  } while (assumed != old);\n  return old;\n}\n")
    return "".join(out)


HELPERS: dict[str, Helper] = {
    SYSTEM_ATOMICS_HELPER: Helper("CASS_SYSTEM_ATOMICS", "CUDA's atomicInc_system/atomicDec_system; HIP has the "
                                  "other _system atomics, not these", _system_atomics()),
    rounding.HELPER: Helper(rounding.GUARD, rounding.WHY, rounding.code()),
    groups.REDUCE_HELPER: Helper(groups.REDUCE_GUARD, groups.REDUCE_WHY, groups.reduce_code()),
    groups.SHUFFLE_HELPER: Helper(groups.SHUFFLE_GUARD, groups.SHUFFLE_WHY, groups.shuffle_code()),
    nvtx.HELPER: Helper(nvtx.GUARD, nvtx.WHY, nvtx.code()),
    nvtx.NAMING_HELPER: Helper(nvtx.NAMING_GUARD, nvtx.NAMING_WHY, nvtx.naming_code()),

    INTEGER_MINMAX_HELPER: Helper("CASS_INTEGER_MINMAX", "CUDA's umin/umax, llmin/llmax and ullmin/ullmax; HIP "
                                  "has none", _integer_minmax()),
    CACHE_HINT_HELPER: Helper("CASS_CACHE_HINTS", "NVIDIA's cache-hinted loads and stores for any type; HIP has "
                              "them for __half only: a plain load or store, the hint dropped", _cache_hints()),
    CUDA_ARCH_HELPER: Helper("CASS_CUDA_ARCH_LEVEL", "HIP has no __CUDA_ARCH__; CASS_CUDA_ARCH stands for it on "
                             "the device pass, at the level of CUDA features AMD GPUs have",
                             f"#if defined(__HIP_DEVICE_COMPILE__) && !defined({CUDA_ARCH_MACRO})\n"
                             f"#define {CUDA_ARCH_MACRO} {CUDA_ARCH_LEVEL}\n#endif\n"),
    "hipsparse-error-strings": Helper("CASS_HIPSPARSE_ERROR_STRINGS",
                                      "hipSPARSE has hipsparseGetErrorString/Name from ROCm 6.0",
                                      _sparse_strings()),
    DRV_ERROR_STRINGS_HELPER: Helper("CASS_HIP_DRV_ERROR_STRINGS", "HIP has hipDrvGetErrorString/Name from ROCm "
                                     "5.4; before, the runtime's strings of the same hipError_t", _drv_strings()),
    CONTEXT_PARAMS_HELPER: Helper("CASS_CONTEXT_CREATE_PARAMS", "CUDA 12.5's context-creation parameters; HIP's "
                                  "contexts take none", f"struct {CONTEXT_PARAMS} {{\n  void* execAffinityParams;\n"
                                  "  int numExecAffinityParams;\n  void* cigParams;\n};\n"),
    "atomic-minmax-fp": Helper("CASS_ATOMIC_MINMAX_FP", "HIP's atomicMin/atomicMax on float and double; CUDA has "
                               "only the integer ones", _atomic_minmax()),
    "unconst": Helper("CASS_UNCONST", "CUDA's __nv_atomic_* builtins take no pointer to const",
                      "template <typename T> __device__ inline T* cass_unconst(const T* p) "
                      "{ return const_cast<T*>(p); }\n"),
    HIP_DEVICE_ATTRIBUTE_HELPER: Helper("CASS_HIP_DEVICE_ATTRIBUTE", "hipDeviceProp_t lacks some cudaDeviceProp "
                                        "fields before ROCm 6.0; hipDeviceGetAttribute reads them",
                                        f"static inline int {HIP_DEVICE_ATTRIBUTE}(hipDeviceAttribute_t attr, "
                                        "int device) {\n  int value = 0;\n  if (device < 0) hipGetDevice(&device);\n"
                                        "  hipDeviceGetAttribute(&value, attr, device);\n  return value;\n}\n"),
    "device-attribute": Helper("CASS_DEVICE_ATTRIBUTE", "CUDA 13 removed some cudaDeviceProp fields; "
                               "cudaDeviceGetAttribute still reads them",
                               "static inline int cass_device_attribute(cudaDeviceAttr attr, int device) {\n"
                               "  int value = 0;\n  if (device < 0) cudaGetDevice(&device);\n"
                               "  cudaDeviceGetAttribute(&value, attr, device);\n  return value;\n}\n"),
}

# CUDA name -> (first ROCm that has its HIP form, the helper it calls before, helper key).
_FORWARD: dict[str, tuple[tuple[int, int], str, str]] = {
    "cusparseGetErrorString": ((6, 0), "cass_hipsparseGetErrorString", "hipsparse-error-strings"),
    "cusparseGetErrorName": ((6, 0), "cass_hipsparseGetErrorName", "hipsparse-error-strings"),
    "cuGetErrorString": ((5, 4), "cass_hipDrvGetErrorString", DRV_ERROR_STRINGS_HELPER),
    "cuGetErrorName": ((5, 4), "cass_hipDrvGetErrorName", DRV_ERROR_STRINGS_HELPER),
}
FORWARD_NAMES = frozenset(_FORWARD)
# CUDA name -> (the ROCm whose HIP renamed its HIP form to the tables' spelling, the spelling before).
_OLDER_SPELLINGS: dict[str, tuple[tuple[int, int], str]] = {
    "CUSPARSE_ORDER_COL": ((5, 4), "HIPSPARSE_ORDER_COLUMN"),  # hipSPARSE 2.3.3 renamed it to match cuSPARSE
}
# HIP names the tables do not map back: deprecated HIP spellings.
REVERSE_RENAMES = {"hipMallocHost": "cudaMallocHost", "hipFreeHost": "cudaFreeHost"}
_ATOMIC_ORDERS = ("RELAXED", "CONSUME", "ACQUIRE", "RELEASE", "ACQ_REL", "SEQ_CST")
REVERSE_NAMES = frozenset({*REVERSE_RENAMES, "atomicMin", "atomicMax", "__atomic_load_n"})
_FP_POINTER = r"\b(?:float|double)\s*(?:\*\s*(?:const\s+|__restrict__\s+|__restrict\s+)*{name}\b|{name}\s*\[)"
_FP_VALUE = r"\b(?:float|double)\s+{name}\b"


def older_spelling(name: str, hip: str, rocm: tuple[int, int]) -> tuple[str, str] | None:
    """The HIP name ``name`` has on a ROCm older than the tables' ``hip`` spelling, and the finding's
    message; None when the target spells it as the tables do."""
    renamed = _OLDER_SPELLINGS.get(name)
    if renamed is None or rocm >= renamed[0]:
        return None
    since, older = renamed
    return older, (f"{hip} (for {name}) is {older} before ROCm {since[0]}.{since[1]}, the same value; the target is "
                   f"ROCm {rocm[0]}.{rocm[1]}")


# CUDART_VERSION and CUDA_VERSION (cuda.h) read on the HIP side: CASS_CUDART_VERSION / CASS_CUDA_VERSION,
# the value of the CUDA the original is built with (the target's CUDA, cass.target.cuda), so that
# `#if CUDART_VERSION >= ...` takes the branch the original takes; a CUDA runtime underneath (HIP on
# NVIDIA, the CPU runtime) gives its own. The helper key carries the value: "cudart-version:13000".
VERSION_MACROS = {"CUDART_VERSION": "CASS_CUDART_VERSION", "CUDA_VERSION": "CASS_CUDA_VERSION"}
_CUDART_VERSION_HELPER = "cudart-version:"


def cudart_version_helper(cuda: tuple[int, int]) -> str:
    return f"{_CUDART_VERSION_HELPER}{cuda[0] * 1000 + cuda[1] * 10}"


def _cudart_version(key: str) -> Helper:
    value = key[len(_CUDART_VERSION_HELPER):]
    code = "".join(f"#ifndef {ours}\n#ifdef {cuda}\n#define {ours} {cuda}\n#else\n#define {ours} {value}\n#endif\n#endif\n"
                   for cuda, ours in VERSION_MACROS.items())
    return Helper("CASS_CUDART_VERSION_LEVEL", "HIP has no CUDART_VERSION or CUDA_VERSION; these stand for them, "
                  "at the version of the CUDA the original is built with", code)


def render(key: str, eol: str) -> str:
    if key.startswith(_CUDART_VERSION_HELPER):
        helper = _cudart_version(key)
    else:
        helper = Helper(*vectors.helper(key)) if vectors.is_helper(key) else HELPERS[key]
    text = (f"// cass: compatibility helper ({helper.why})\n#ifndef {helper.guard}\n#define {helper.guard}\n"
            f"{helper.code}#endif  // {helper.guard}\n")
    return text.replace("\n", eol)


def context_create(p: HelperContext, name: str, node: tree_sitter.Node) -> bool:
    """``CUctxCreateParams`` -> the helper struct; ``cuCtxCreate(&c, params, flags, dev)`` ->
    ``hipCtxCreate(&c, flags, dev)``, the parameters dropped with a finding; False for a CUDA 12
    ``cuCtxCreate(&c, flags, dev)`` (the table's rename)."""
    if name == "CUctxCreateParams":
        p.edit(node.start_byte, node.end_byte, CONTEXT_PARAMS, "driver")
        p.need_helper(CONTEXT_PARAMS_HELPER, node.start_byte)
        return True
    call = p.call_of(node)
    args = p.arguments(call) if call is not None and p.inside(call) else []
    if len(args) != 4:
        return name == "cuCtxCreate_v4"  # kept: its table row reports it
    p.apply_entry("cuCtxCreate", node.start_byte, node.end_byte)
    params = p.text(args[1]).strip()
    p.edit(args[0].end_byte, args[1].end_byte, "", "driver")
    source = p.file_source.decode("utf-8", "surrogateescape")
    variable = params[1:].strip() if params.startswith("&") else ""
    empty = params in ("NULL", "nullptr", "0") or bool(
        re.fullmatch(r"\w+", variable) and re.search(rf"\bCUctxCreateParams\s+{variable}\s*=\s*\{{\s*0?\s*\}}", source)
        and not re.search(rf"\b{variable}\s*(?:\.|->)", source))
    p.find(fc.UNSUPPORTED_API, "info" if empty else "warning", f"{name} with creation parameters ({params}): HIP's "
           "contexts take none (no execution affinity, no CIG), so hipCtxCreate gets the context, flags and device "
           "only" + ("; these are empty, the same context" if empty else "; check that the port needs none of them"),
           args[1].start_byte, args[1].end_byte, name=name, family="driver")
    return True


# CUDA struct tags whose HIP name is a typedef of another tag: ``struct cudaGraphicsResource* r`` (the
# GL-interop samples) names HIP's tag, since clang rejects ``struct hipGraphicsResource`` (a typedef).
STRUCT_TAGS = {"cudaGraphicsResource": "_hipGraphicsResource"}


def struct_tag(p: RuleContext, name: str, node: tree_sitter.Node) -> bool:
    """``struct cudaGraphicsResource`` (no body) -> ``struct _hipGraphicsResource``; False for other uses."""
    parent = node.parent
    if (parent is None or parent.type != "struct_specifier" or parent.child_by_field_name(nodes.Field.NAME) != node
            or parent.child_by_field_name(nodes.Field.BODY) is not None):
        return False
    p.need_runtime()
    p.edit(node.start_byte, node.end_byte, STRUCT_TAGS[name], "runtime")
    return True


def scoped_atomic(p: HelperContext, name: str, node: tree_sitter.Node) -> bool:
    """``atomicAdd_block`` -> ``atomicAdd``; ``atomicInc_system`` -> ``cass_atomicInc_system`` (always handled)."""
    if name.endswith("_block"):
        new = name[:-len("_block")]
        p.edit(node.start_byte, node.end_byte, new, "device")
        p.find(fc.UNSUPPORTED_API, "info", f"{name}: HIP has no block-scope atomics; {new}, the device-scope "
               "atomic, is a valid (wider) implementation", node.start_byte, node.end_byte, name=name,
               family="device")
        return True
    new = f"cass_{name}"
    p.edit(node.start_byte, node.end_byte, new, "compat")
    p.need_helper(SYSTEM_ATOMICS_HELPER, node.start_byte)
    p.find(fc.UNSUPPORTED_API, "info", f"{name}: HIP has no {name}; {new}, a compatibility helper this translation "
           "defines, is an atomicCAS_system loop with CUDA's wrap-around", node.start_byte, node.end_byte,
           name=name, family="device")
    return True


def forward(p: HelperContext, name: str, node: tree_sitter.Node) -> bool:
    """A CUDA name whose HIP form the target lacks -> the helper (True when handled)."""
    since, helper_name, key = _FORWARD[name]
    if p.target.rocm >= since:
        return False
    p.edit(node.start_byte, node.end_byte, helper_name, "compat")
    p.need_helper(key, node.start_byte)
    p.find(fc.API_NEWER_THAN_TARGET, "info", f"{name}'s HIP form needs ROCm {since[0]}.{since[1]}; the target is "
           f"ROCm {p.target.rocm_text}, so it calls {helper_name}, a compatibility helper this translation "
           "defines", node.start_byte, node.end_byte, name=name)
    return True


def cache_hint(p: HelperContext, name: str, node: tree_sitter.Node) -> bool:
    """``__stcs(p, v)`` -> ``cass_stcs(p, v)``, the compatibility helper (always handled)."""
    helper = f"{CACHE_HINT_PREFIX}{name[2:]}"
    p.edit(node.start_byte, node.end_byte, helper, "compat")
    p.need_helper(CACHE_HINT_HELPER, node.start_byte)
    p.find(fc.UNSUPPORTED_API, "info", f"{name}: HIP has no cache-hinted {'load' if name in CACHE_LOADS else 'store'} "
           f"but for __half; {helper}, a compatibility helper this translation defines, drops the hint (the "
           "value is the same)", node.start_byte, node.end_byte, name=name)
    return True


def integer_minmax(p: HelperContext, name: str, node: tree_sitter.Node) -> bool:
    """``umin(a, b)`` -> ``cass_umin(a, b)``, the compatibility helper (always handled)."""
    helper = f"cass_{name}"
    p.edit(node.start_byte, node.end_byte, helper, "compat")
    p.need_helper(INTEGER_MINMAX_HELPER, node.start_byte)
    p.find(fc.UNSUPPORTED_API, "info", f"{name}: HIP has no {name}; {helper}, a compatibility helper this "
           f"translation defines, takes and returns {INTEGER_MINMAX[name]} as CUDA's does",
           node.start_byte, node.end_byte, name=name, family="device")
    return True


def newer_prop_field(p: HelperContext, name: str, node: tree_sitter.Node) -> None:
    """A cudaDeviceProp field the target's hipDeviceProp_t lacks: a finding saying what reads it.
    Of a variable declared as the properties, ``sharedMemPerBlockOptin`` becomes ``sharedMemPerBlock``
    (AMD GPUs have no opt-in above the per-block limit, so the two are the same number there), and a
    read of a field with a device attribute (:data:`PROP_ATTRIBUTES`) becomes
    ``cass_hip_device_attribute(attribute, device)``, the value the runtime reports."""
    if p.target.rocm >= _HIP_PROP_FIELDS_SINCE or b"DeviceProp" not in p.src:
        return
    if name == _OPTIN and _properties_member(p, node):
        p.edit(node.start_byte, node.end_byte, _OPTIN_ON_AMD, "runtime")
        p.find(fc.API_NEWER_THAN_TARGET, "info", f"hipDeviceProp_t has no {name} before ROCm "
               f"{_HIP_PROP_FIELDS_SINCE[0]}.{_HIP_PROP_FIELDS_SINCE[1]}; AMD GPUs have no opt-in above the "
               f"per-block limit, so it reads {_OPTIN_ON_AMD}", node.start_byte, node.end_byte, name=name)
        return
    since = f"ROCm {_HIP_PROP_FIELDS_SINCE[0]}.{_HIP_PROP_FIELDS_SINCE[1]}"
    field = node.parent
    if name in PROP_ATTRIBUTES and _properties_member(p, node) and field is not None and not _written(field):
        attribute = PROP_ATTRIBUTES[name]
        obj = field.child_by_field_name(nodes.Field.ARGUMENT)
        assert obj is not None  # _properties_member found it
        device = _properties_device(p, p.text(obj), field)
        p.edit(field.start_byte, field.end_byte, f"{HIP_DEVICE_ATTRIBUTE}({attribute}, {device})", "runtime")
        p.need_helper(HIP_DEVICE_ATTRIBUTE_HELPER, field.start_byte)
        p.find(fc.API_NEWER_THAN_TARGET, "info", f"hipDeviceProp_t has no {name} before {since} (the target is "
               f"ROCm {p.target.rocm_text}): read with hipDeviceGetAttribute({attribute}) through "
               f"{HIP_DEVICE_ATTRIBUTE}, a compatibility helper this translation defines",
               field.start_byte, field.end_byte, name=name)
        return
    instead = NEWER_PROP_FIELDS[name]
    use = f"use {instead} (or target {since}: cass.target.rocm)" if instead else f"target {since} (cass.target.rocm)"
    p.find(fc.API_NEWER_THAN_TARGET, "warning", f"hipDeviceProp_t has no {name} before {since} (the target is "
           f"ROCm {p.target.rocm_text}): {use}", node.start_byte, node.end_byte, name=name)


def reverse(p: HelperContext, name: str, node: tree_sitter.Node) -> bool:
    """HIP constructs CUDA (of the target version) lacks; True when handled."""
    if name in REVERSE_RENAMES:
        p.edit(node.start_byte, node.end_byte, REVERSE_RENAMES[name], "runtime")
        return True
    call = p.call_of(node)
    if call is None or not p.inside(call):
        return True
    args = p.arguments(call)
    if name in ("atomicMin", "atomicMax"):
        if args and _floating_pointer(p, args[0]):
            p.need_helper("atomic-minmax-fp", call.start_byte)
            p.find(fc.UNSUPPORTED_API, "info", f"CUDA has no {name} on float/double (HIP has); this translation "
                   "defines the overloads as compatibility helpers", node.start_byte, node.end_byte, name=name)
        return True
    if name == "__atomic_load_n" and len(args) == 2 and p.in_device_function(call):
        _atomic_load(p, node, args)
    return True


def _atomic_load(p: HelperContext, node: tree_sitter.Node, args: list[tree_sitter.Node]) -> None:
    order = p.text(args[1]).strip()
    if not order.startswith("__ATOMIC_") or order[len("__ATOMIC_"):] not in _ATOMIC_ORDERS:
        return
    if p.target.cuda < _NV_ATOMICS_SINCE:
        p.find(fc.UNSUPPORTED_API, "error", f"__atomic_load_n in device code: nvcc rejects the GCC builtin there, "
               f"and CUDA {p.target.cuda_text} lacks __nv_atomic_load_n (CUDA 12.8); use cuda::atomic_ref",
               node.start_byte, node.end_byte, name="__atomic_load_n")
        return
    p.edit(node.start_byte, node.end_byte, "__nv_atomic_load_n", "device")
    p.edit(args[0].start_byte, args[0].start_byte, "cass_unconst(")
    p.edit(args[0].end_byte, args[0].end_byte, ")")
    # HIP's __atomic builtins act at system scope.
    p.edit(args[1].start_byte, args[1].end_byte, f"__NV{order[1:]}, __NV_THREAD_SCOPE_SYSTEM")
    p.need_helper("unconst", node.start_byte)


def _floating_pointer(p: RuleContext, arg: tree_sitter.Node) -> bool:
    """The argument points to float/double, as far as the file's declarations tell."""
    text = p.text(arg).strip()
    m = re.fullmatch(r"&\s*(\w+)(?:\s*\[[^\]]*\])?", text)
    if m is not None:
        pattern = _FP_VALUE.format(name=re.escape(m[1])) + "|" + _FP_POINTER.format(name=re.escape(m[1]))
    else:
        m = re.fullmatch(r"(\w+)(?:\s*\+\s*[\w.]+)?", text)
        if m is None:
            return False
        pattern = _FP_POINTER.format(name=re.escape(m[1]))
    return re.search(pattern, p.file_source.decode("utf-8", "surrogateescape")) is not None


_DYNAMIC_SHARED = rb"\bHIP_DYNAMIC_SHARED[ \t]*\([ \t]*([^,()]+?)[ \t]*,[ \t]*(\w+)[ \t]*\)([ \t]*;)?"


def reverse_dynamic_shared(p: RuleContext) -> None:
    """``HIP_DYNAMIC_SHARED(T, name)`` -> ``extern __shared__ T name[];``. The grammar cannot parse
    the macro (a statement without a semicolon), so it is found in the bytes, not in the tree."""
    for m in re.compile(_DYNAMIC_SHARED).finditer(p.src, p.lo, p.hi):
        if p.context(m.start(), m.start() + len("HIP_DYNAMIC_SHARED"))[0] != "code":
            continue
        value_type, name = (g.decode("utf-8", "surrogateescape") for g in (m[1], m[2]))
        p.edit(m.start(), m.end(), f"extern __shared__ {value_type} {name}[];", "device")


def dynamic_shared_spans(src: bytes) -> list[tuple[int, int]]:
    """Where ``HIP_DYNAMIC_SHARED(...)`` stands: the reverse direction rewrites it, so the parse
    error the grammar reports there is no finding."""
    return [m.span() for m in re.finditer(rb"\bHIP_DYNAMIC_SHARED[ \t]*\([^()\n]*\)", src)]


def prop_field(p: HelperContext, name: str, node: tree_sitter.Node) -> bool:
    """``prop.clockRate`` -> ``cass_device_attribute(cudaDevAttrClockRate, device)`` for CUDA 13+."""
    field = node.parent
    if p.target.cuda < _PROP_FIELDS_REMOVED_IN or field is None or field.parent is None or not _properties_member(p, node):
        return False
    obj = field.child_by_field_name(nodes.Field.ARGUMENT)
    assert obj is not None  # _properties_member found it
    var = p.text(obj)
    if _written(field):
        return False  # no attribute to assign to
    device = _properties_device(p, var, field)
    attr = REMOVED_PROP_FIELDS[name]
    p.edit(field.start_byte, field.end_byte, f"cass_device_attribute({attr}, {device})", "runtime")
    p.need_helper("device-attribute", field.start_byte)
    p.find(fc.DEPRECATED_API, "info", f"cudaDeviceProp::{name} was removed in CUDA 13; read with "
           f"cudaDeviceGetAttribute({attr})", field.start_byte, field.end_byte, name=name)
    return True


def _written(field: tree_sitter.Node) -> bool:
    """The field expression is the left side of an assignment."""
    parent = field.parent
    return parent is not None and parent.type == nodes.ASSIGNMENT and parent.child_by_field_name(nodes.Field.LEFT) == field


_OPTIN = "sharedMemPerBlockOptin"
_OPTIN_ON_AMD = "sharedMemPerBlock"


def _properties_member(p: HelperContext, node: tree_sitter.Node) -> bool:
    """``node`` names a member of a variable the file declares as cudaDeviceProp/hipDeviceProp_t."""
    field = node.parent
    if field is None or field.type != nodes.FIELD_EXPRESSION or not p.inside(field):
        return False
    obj = field.child_by_field_name(nodes.Field.ARGUMENT)
    if obj is None or obj.type != nodes.IDENTIFIER:
        return False
    source = p.file_source.decode("utf-8", "surrogateescape")
    declared = rf"\b(?:hipDeviceProp_t|cudaDeviceProp)\s+(?:\w+\s*,\s*)*{re.escape(p.text(obj))}\b"
    return re.search(declared, source) is not None


def _properties_device(p: RuleContext, var: str, use: tree_sitter.Node) -> str:
    """The device the properties were read for: the argument of ``GetDeviceProperties(&var, d)``
    in the same function (or a literal anywhere), else -1 (the current device)."""
    function = _enclosing_function(use)
    scope = p.src[function.start_byte:function.end_byte] if function is not None else p.src
    call = re.compile(rb"GetDeviceProperties\s*\(\s*&\s*" + re.escape(var.encode()) + rb"\s*,\s*(\w+)\s*\)")
    m = call.search(scope)
    if m is not None:
        return m[1].decode()
    m = call.search(p.src)
    return m[1].decode() if m is not None and m[1].isdigit() else "-1"


def _enclosing_function(node: tree_sitter.Node) -> tree_sitter.Node | None:
    while node.parent is not None:
        node = node.parent
        if node.type == nodes.FUNCTION_DEFINITION:
            return node
    return None
