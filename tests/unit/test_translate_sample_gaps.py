"""Rules for what NVIDIA's cuda-samples (and multi-gpu-programming-models, llm.c) use that HIP lacks
or spells otherwise; tests/toolchain/test_translate_compile.py compiles them, tests/cpu/test_sample_gaps.py
runs them against CUDA."""

from __future__ import annotations

from cass_lsp.translate import TargetProfile, TranslationResult, translate

P52 = TargetProfile("gfx1100", "5.2")
P71 = TargetProfile("gfx1100", "7.1")


def _findings(result: TranslationResult) -> list[tuple[str, str, str]]:
    return [(f.code, f.severity, f.name) for f in result.findings]


def test_cuda_cxx_overloads_get_the_hip_call_and_default() -> None:
    src = ("#include <cuda_runtime.h>\nvoid f(cudaStream_t s, cudaEvent_t* e, cudaArray_t* a, cudaChannelFormatDesc* d,"
           " cudaExtent x) {\n  cudaEventCreate(e, cudaEventDisableTiming);\n  cudaEventCreate(e);\n"
           "  cudaStreamWaitEvent(s, *e);\n  cudaStreamWaitEvent(s, *e, 0);\n  cudaMalloc3DArray(a, d, x);\n"
           "  cudaMalloc3DArray(a, d, x, cudaArrayLayered);\n}\n")
    out = translate(src, P52)
    assert out.findings == []
    for line in ("hipEventCreateWithFlags(e, hipEventDisableTiming);", "hipEventCreate(e);",
                 "hipStreamWaitEvent(s, *e, 0);\n  hipStreamWaitEvent(s, *e, 0);", "hipMalloc3DArray(a, d, x, 0);",
                 "hipMalloc3DArray(a, d, x, hipArrayLayered);"):
        assert line in out.text


def test_scoped_atomics() -> None:
    src = ("__global__ void k(unsigned* c) {\n  atomicInc_system(c, 9u);\n  atomicDec_system(c, 9u);\n"
           "  atomicAdd_block(c, 1u);\n  atomicAdd_system(c, 1u);\n}\n")
    out = translate(src, P52)
    assert "  cass_atomicInc_system(c, 9u);\n  cass_atomicDec_system(c, 9u);\n  atomicAdd(c, 1u);\n" in out.text
    assert "atomicAdd_system(c, 1u);" in out.text
    assert "old = atomicCAS_system(address, assumed, assumed >= val ? 0u : assumed + 1u);" in out.text
    assert _findings(out) == [("unsupported-api", "info", n) for n in ("atomicInc_system", "atomicDec_system",
                                                                       "atomicAdd_block")]


def test_directed_rounding_calls_the_helper() -> None:
    src = "__global__ void k(float* f, double* d) { f[0] = __fadd_rd(f[1], f[2]) + __fsqrt_rn(f[1]); d[0] = __dmul_ru(d[1], d[2]) + __dadd_rn(d[1], d[2]); }\n"
    out = translate(src, P71)
    assert "f[0] = cass_fadd_rd(f[1], f[2]) + cass_fsqrt_rn(f[1]); d[0] = cass_dmul_ru(d[1], d[2]) + __dadd_rn(d[1], d[2]);" in out.text
    assert out.text.count("#ifndef CASS_DIRECTED_ROUNDING") == 1
    assert [(c, s) for c, s, _ in _findings(out)] == [("unsupported-api", "info")] * 3
    assert "not correctly rounded" in out.findings[1].message
    # double fma has no helper: still unported, an error
    assert _findings(translate("__global__ void k(double* d) { d[0] = __fma_rd(d[1], d[2], d[3]); }\n", P71)) == [
        ("unsupported-api", "error", "__fma_rd")]


def test_meta_group_members_before_rocm_62() -> None:
    src = ("#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n__global__ void k(int* o) {\n"
           "  auto t = cg::tiled_partition<32>(cg::this_thread_block());\n"
           "  o[t.meta_group_rank()] = t.meta_group_size();\n}\n")
    out = translate(src, P52)
    assert ("o[(cooperative_groups::this_thread_block().thread_rank() / t.size())] = "
            "((cooperative_groups::this_thread_block().size() + t.size() - 1) / t.size());") in out.text
    assert _findings(out) == [("api-newer-than-target", "info", "meta_group_rank"),
                              ("api-newer-than-target", "info", "meta_group_size")]
    assert "o[t.meta_group_rank()] = t.meta_group_size();" in translate(src, P71).text


def test_cg_reduce_header_becomes_the_helper() -> None:
    src = ("#include <cooperative_groups.h>\n#include <cooperative_groups/reduce.h>\nnamespace cg = cooperative_groups;\n"
           "__global__ void k(int* o) {\n  auto t = cg::tiled_partition<32>(cg::this_thread_block());\n"
           "  o[0] = cg::reduce(t, 1, cg::plus<int>());\n}\n")
    out = translate(src, P52)
    assert _findings(out) == [("unsupported-header", "info", "cooperative_groups/reduce.h")]
    head = out.text.split("namespace cg")[0]
    assert head.startswith("#include <hip/hip_runtime.h>\n#include <hip/hip_cooperative_groups.h>\n"
                           "// cass: compatibility helper")
    assert "cooperative_groups/reduce.h>\n#" not in head and "template <class T> struct plus {" in head
    assert "__device__ inline T reduce(const Group& g, T v, Op op) {" in head


def test_runtime_version_reads_the_originals_cuda() -> None:
    src = ("#include <cstdio>\n#include <cuda_runtime.h>\n#if CUDART_VERSION >= 4000\nint v = CUDART_VERSION / 1000;\n"
           "#endif\n")
    out = translate(src, TargetProfile("gfx1100", "5.2", cuda="12.4"))
    assert "#if CASS_CUDART_VERSION >= 4000\nint v = CASS_CUDART_VERSION / 1000;" in out.text
    assert "#ifdef CUDART_VERSION\n#define CASS_CUDART_VERSION CUDART_VERSION\n#else\n#define CASS_CUDART_VERSION 12040\n" in out.text
    assert out.text.index("#define CASS_CUDART_VERSION 12040") < out.text.index("#if CASS_CUDART_VERSION")
    assert [(c, s) for c, s, _ in _findings(out)] == [("nvcc-ism", "info")] * 2


def test_nvtx_attributes_and_naming() -> None:
    src = ("#include <nvtx3/nvToolsExt.h>\n#include <nvtx3/nvToolsExtCudaRt.h>\n#include <cuda_runtime.h>\n"
           "void f(cudaStream_t s) {\n  nvtxEventAttributes_t a = {0};\n  a.version = NVTX_VERSION;\n"
           "  a.messageType = NVTX_MESSAGE_TYPE_ASCII;\n  a.message.ascii = \"step\";\n  nvtxRangePushEx(&a);\n"
           "  nvtxRangePop();\n  nvtxNameCudaStreamA(s, \"copy\");\n}\n")
    out = translate(src, P52)
    assert out.text.startswith("#include <hip/hip_runtime.h>\n#include <roctracer/roctx.h>\n// cass: compatibility helper")
    assert out.text.count("roctracer/roctx.h") == 1
    for line in ("  cass_nvtxEventAttributes_t a = {0};", "  cass_nvtxRangePushEx(&a);", "  roctxRangePop();",
                 "  cass_nvtxName(s, \"copy\");", "return roctxRangePushA((a->messageType == NVTX_MESSAGE_TYPE_ASCII"):
        assert line in out.text
    assert {s for _, s, _ in _findings(out)} == {"info"}
    assert "colour, category and payload" in next(f.message for f in out.findings if f.name == "nvtxRangePushEx")


def test_gl_interop_header_where_hip_has_it() -> None:
    src = "#include <cuda_runtime.h>\n#include <cuda_gl_interop.h>\n"
    assert "#include <hip/hip_gl_interop.h>" in translate(src, P71).text
    assert _findings(translate(src, P52)) == [("unsupported-header", "error", "cuda_gl_interop.h")]


def test_graphics_resource_struct_tag_and_map_flags() -> None:
    """simpleCUDA2GL's ``struct cudaGraphicsResource *r``: HIP's name is a typedef of _hipGraphicsResource."""
    src = ("#include <cuda_runtime.h>\nstruct cudaGraphicsResource *r;\ncudaGraphicsResource *q;\n"
           "void f(unsigned b) { cudaGraphicsGLRegisterBuffer(&r, b, cudaGraphicsMapFlagsWriteDiscard); }\n")
    out = translate(src, P71)
    assert out.findings == []
    assert "struct _hipGraphicsResource *r;\nhipGraphicsResource *q;\n" in out.text
    assert "hipGraphicsGLRegisterBuffer(&r, b, hipGraphicsRegisterFlagsWriteDiscard);" in out.text


def test_host_memory_location_in_hip_71() -> None:
    src = "#include <cuda_runtime.h>\nvoid f(cudaMemLocation* l) { l->type = cudaMemLocationTypeHost; }\n"
    assert "l->type = hipMemLocationTypeHost;" in translate(src, P71).text
    assert _findings(translate(src, P52)) == [("api-newer-than-target", "error", "cudaMemLocationTypeHost")]


def test_graph_upload_is_left_out_where_hip_lacks_it() -> None:
    """cudaGraphsPerfScaling's cudaGraphUpload: HIP has it from 5.3; the launch uploads anyway."""
    src = "#include <cuda_runtime.h>\nvoid f(cudaGraphExec_t g, cudaStream_t* s) { cudaGraphUpload(g, s[1]); }\n"
    out = translate(src, P52)
    assert "{ ((void)(g), (void)(s[1]), hipSuccess); }" in out.text
    assert _findings(out) == [("api-newer-than-target", "info", "cudaGraphUpload")]
    assert "hipGraphUpload(g, s[1]);" in translate(src, P71).text


def test_runtime_include_is_not_put_under_an_ifdef() -> None:
    """jacobi: its first CUDA include is under #ifdef HAVE_CUB; the runtime include HIP needs for the
    kernels must not be skipped with it."""
    src = ("#include <cstdio>\n#ifdef HAVE_CUB\n#include <cub/block/block_reduce.cuh>\n#endif\n"
           "__global__ void k(float* a) { a[threadIdx.x] = 0; }\n")
    out = translate(src, P52)
    assert out.text.startswith("#include <hip/hip_runtime.h>\n#include <cstdio>\n#ifdef HAVE_CUB\n#include <hipcub/hipcub.hpp>\n#endif\n")
    guarded = "#ifndef K_H\n#define K_H\n#include <cub/cub.cuh>\n#endif\n"
    assert translate(guarded, P52).text == "#ifndef K_H\n#define K_H\n#include <hip/hip_runtime.h>\n#include <hipcub/hipcub.hpp>\n#endif\n"


def test_group_shuffles_of_other_types_move_words() -> None:
    """shfl_scan's ``tile.shfl_xor(result.y, 1)`` of a uint4: HIP's tile shuffles take numbers only."""
    src = ("#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\nstruct P { uint4 x, y; };\n"
           "__global__ void k(uint4* o, float* q) {\n  const auto tile = cg::tiled_partition<32>(cg::this_thread_block());\n"
           "  P r; r.y = o[0];\n  float sum = q[0];\n  r.y = tile.shfl_xor(r.y, 1);\n"
           "  sum += tile.shfl_down(sum, 1) + tile.shfl_up(2.0f, 1);\n  o[1] = tile.shfl(o[0], 0);\n}\n")
    out = translate(src, P52)
    assert "r.y = cass_shfl_xor(tile, r.y, 1);" in out.text and "o[1] = cass_shfl(tile, o[0], 0);" in out.text
    assert "sum += tile.shfl_down(sum, 1) + tile.shfl_up(2.0f, 1);" in out.text  # numbers: HIP's own
    assert "if constexpr (std::is_arithmetic<T>::value || sizeof(T) % sizeof(int) != 0) {" in out.text
    assert _findings(out) == [("unsupported-api", "info", "shfl_xor"), ("unsupported-api", "info", "shfl")]


def test_memory_location_forms_of_cuda_13() -> None:
    """UnifiedMemoryPerf's cudaMemPrefetchAsync(p, n, hostLoc, 0): HIP 7.1's _v2 calls; CUDA 12's device form stays."""
    src = ("#include <cuda_runtime.h>\nvoid f(float* p, size_t n, cudaStream_t s, int dev) {\n"
           "  cudaMemLocation loc;\n  loc.type = cudaMemLocationTypeDevice;\n  cudaMemPrefetchAsync(p, n, loc, 0, s);\n"
           "  cudaMemPrefetchAsync(p, n, dev, s);\n  cudaMemAdvise(p, n, cudaMemAdviseSetReadMostly, loc);\n}\n")
    out = translate(src, P71)
    assert out.findings == []
    for line in ("hipMemPrefetchAsync_v2(p, n, loc, 0, s);", "hipMemPrefetchAsync(p, n, dev, s);",
                 "hipMemAdvise_v2(p, n, hipMemAdviseSetReadMostly, loc);"):
        assert line in out.text
    assert _findings(translate(src, P52)) == [("api-newer-than-target", "error", n)
                                              for n in ("cudaMemPrefetchAsync", "cudaMemAdvise")]


def test_cublas_licence_status_is_hipblas_unknown_without_a_duplicate_case() -> None:
    """helper_cuda.h's _cudaGetErrorEnum(cublasStatus_t) names every status; CUBLAS_STATUS_LICENSE_ERROR
    was kept (the HIPIFY table gives HIPBLAS_STATUS_UNKNOWN no version) and simpleCUBLAS did not compile."""
    src = ("#include <cublas_v2.h>\nconst char *e(cublasStatus_t s) {\n  switch (s) {\n"
           "    case CUBLAS_STATUS_NOT_SUPPORTED: return \"a\";\n    case CUBLAS_STATUS_LICENSE_ERROR: return \"b\";\n"
           "    default: return \"c\";\n  }\n}\n")
    out = translate(src, P52)
    cases = [line.strip() for line in out.text.splitlines() if line.strip().startswith("case ")]
    assert cases == ['case HIPBLAS_STATUS_NOT_SUPPORTED: return "a";', 'case HIPBLAS_STATUS_UNKNOWN: return "b";']


def test_builtin_types_header_becomes_the_hip_runtime() -> None:
    """cuda-samples' driver-API samples (matrixMulDrv, vectorAddDrv, simpleTextureDrv, ...) include
    <builtin_types.h> beside <cuda.h>: it was kept, a CUDA header the HIP build does not have."""
    out = translate("#include <cuda.h>\n#include <builtin_types.h>\nCUdeviceptr p;\n", P52)
    assert "builtin_types" not in out.text
    assert out.text.startswith("#include <hip/hip_runtime.h>\n")
    assert [f for f in out.findings if f.severity == "error"] == []


def test_driver_error_strings_before_rocm_54_call_the_helper() -> None:
    """helper_cuda_drvapi.h's checkCudaErrors calls cuGetErrorString: hipDrvGetErrorString is ROCm 5.4's,
    so every driver-API and NVRTC sample stopped there on 5.2."""
    src = ("#include <cuda.h>\nvoid f(CUresult e) {\n  const char *s = 0;\n  cuGetErrorString(e, &s);\n"
           "  cuGetErrorName(e, &s);\n}\n")
    old, new = translate(src, P52), translate(src, P71)
    assert "  cass_hipDrvGetErrorString(e, &s);\n  cass_hipDrvGetErrorName(e, &s);\n" in old.text
    assert old.text.count("#define CASS_HIP_DRV_ERROR_STRINGS\n") == 1
    assert "*text = hipGetErrorString(error);" in old.text
    assert {f.severity for f in old.findings if f.code == "api-newer-than-target"} == {"info"}
    assert "  hipDrvGetErrorString(e, &s);\n  hipDrvGetErrorName(e, &s);\n" in new.text and "cass_" not in new.text


def test_context_creation_parameters_are_declared_and_dropped_from_the_call() -> None:
    """CUDA 13's cuCtxCreate(&c, &params, flags, dev) (every driver-API and NVRTC sample, with
    `CUctxCreateParams params = {};`): HIP has neither the type nor the parameter."""
    src = ("#include <cuda.h>\nvoid f(CUdevice dev, CUctxCreateParams *q) {\n  CUcontext c;\n"
           "  CUctxCreateParams params = {};\n  cuCtxCreate(&c, &params, 0, dev);\n  cuCtxCreate(&c, q, 0, dev);\n"
           "  cuCtxCreate(&c, 0, dev);\n}\n")
    out = translate(src, P52)
    assert "  cass_CUctxCreateParams params = {};\n" + "  hipCtxCreate(&c, 0, dev);\n" * 3 in out.text
    assert out.text.count("struct cass_CUctxCreateParams {\n") == 1
    assert [(f.severity, f.message.split(":")[0]) for f in out.findings if f.code == "unsupported-api"] == [
        ("info", "cuCtxCreate with creation parameters (&params)"), ("warning", "cuCtxCreate with creation parameters (q)")]


def test_nvrtc_options_array_is_passed_as_hips_pointer_type() -> None:
    """nvrtc_helper.h passes `char *compileParams[2]`: NVRTC takes const char* const*, HIP const char**,
    which a char** does not convert to (every NVRTC sample)."""
    src = ("#include <nvrtc.h>\nvoid f(nvrtcProgram p, char **o) {\n  char *params[2];\n"
           "  nvrtcCompileProgram(p, 2, params);\n  nvrtcCompileProgram(p, 0, NULL);\n"
           "  nvrtcCompileProgram(p, 1, (const char**)o);\n}\n")
    out = translate(src, P52).text
    assert ("  hiprtcCompileProgram(p, 2, const_cast<const char**>(params));\n  hiprtcCompileProgram(p, 0, NULL);\n"
            "  hiprtcCompileProgram(p, 1, (const char**)o);\n") in out


def test_nvrtc_cubin_is_hips_code_object() -> None:
    """nvrtc_helper.h loads nvrtcGetCUBIN's output with cuModuleLoadData: HIP's loadable code is
    hiprtcGetCode's (the tables gave hiprtcGetBitcode, LLVM bitcode, and ROCm 5.3)."""
    src = ("#include <nvrtc.h>\nvoid f(nvrtcProgram p, char *code, size_t *n) {\n  nvrtcGetCUBINSize(p, n);\n"
           "  nvrtcGetCUBIN(p, code);\n}\n")
    out = translate(src, P52)
    assert "  hiprtcGetCodeSize(p, n);\n  hiprtcGetCode(p, code);\n" in out.text
    assert [f for f in out.findings if f.severity != "info"] == []


def test_min_of_a_thread_coordinate_takes_cudas_unsigned_type() -> None:
    """eigenvalues' `min(rem, blockDim.x)` (rem unsigned): HIP's blockDim.x is a proxy object and clang
    finds HIP's min overloads ambiguous; converted to unsigned int, as CUDA's is, the call resolves."""
    src = ("__global__ void k(unsigned int rem, int *o) {\n  o[0] = min(rem, blockDim.x);\n"
           "  o[1] = max(threadIdx.y, blockDim.y);\n  o[2] = min(rem, 4u);\n}\n")
    out = translate(src, P52).text
    assert "  o[0] = min(rem, (unsigned int)blockDim.x);\n" in out
    assert "  o[1] = max((unsigned int)threadIdx.y, (unsigned int)blockDim.y);\n  o[2] = min(rem, 4u);\n" in out


def test_overloads_that_become_one_hip_function_are_defined_once() -> None:
    """helper_cuda.h's _cudaGetErrorEnum(cudaError_t) and _cudaGetErrorEnum(CUresult) are both
    hipError_t in HIP: a redefinition (streamOrderedAllocationIPC, which defines CUDA_DRIVER_API)."""
    src = ("#include <cuda_runtime.h>\n#include <cuda.h>\n#ifdef __DRIVER_TYPES_H__\n"
           "static const char *e(cudaError_t x) { return cudaGetErrorName(x); }\n#endif\n#ifdef CUDA_DRIVER_API\n"
           "static const char *e(CUresult x) {\n  const char *r = 0;\n  cuGetErrorName(x, &r);\n  return r;\n}\n#endif\n"
           "#ifdef A\nint g(cudaError_t x) { return 1; }\n#else\nint g(cudaError_t x) { return 2; }\n#endif\n")
    out = translate(src, P71)
    macro = "CASS_DEFINED_e_hipError_t"
    assert f"static const char *e(hipError_t x) {{ return hipGetErrorName(x); }}\n#define {macro}\n#endif\n" in out.text
    assert (f"#ifdef CUDA_DRIVER_API\n#ifndef {macro}  // cass: e(hipError_t) is defined above\n"
            "static const char *e(hipError_t x) {\n") in out.text
    assert "  return r;\n}\n#endif\n#endif\n#ifdef A\nint g(hipError_t x) { return 1; }\n#else\n" in out.text
    assert [(f.code, f.name) for f in out.findings] == [("nvcc-ism", "e")]


def test_driver_occupancy_call_drops_the_null_size_callback() -> None:
    """matrixMulDrv: cuOccupancyMaxPotentialBlockSize(&g, &b, f, 0, smem, 0): HIP's module form has no
    callback argument."""
    src = ("#include <cuda.h>\nvoid f(CUfunction k, CUoccupancyB2DSize cb, int *g, int *b) {\n"
           "  cuOccupancyMaxPotentialBlockSize(g, b, k, 0, 1024, 0);\n"
           "  cuOccupancyMaxPotentialBlockSize(g, b, k, cb, 1024, 0);\n}\n")
    out = translate(src, P52)
    assert "  hipModuleOccupancyMaxPotentialBlockSize(g, b, k, 1024, 0);\n" in out.text
    assert [(f.code, f.severity) for f in out.findings if f.name == "cuOccupancyMaxPotentialBlockSize"] == [
        ("unsupported-api", "error")]


def test_deprecated_virtual_address_attribute_is_the_virtual_memory_one() -> None:
    """vectorAddMMAP asks CU_DEVICE_ATTRIBUTE_VIRTUAL_ADDRESS_MANAGEMENT_SUPPORTED, cuda.h's deprecated
    alias (102) of ..._VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED: HIP's twin from ROCm 5.3, kept before."""
    src = ("#include <cuda.h>\nvoid f(int *v, CUdevice d) {\n"
           "  cuDeviceGetAttribute(v, CU_DEVICE_ATTRIBUTE_VIRTUAL_ADDRESS_MANAGEMENT_SUPPORTED, d);\n}\n")
    assert "hipDeviceAttributeVirtualMemoryManagementSupported, d);" in translate(src, P71).text
    old = translate(src, P52)
    assert "CU_DEVICE_ATTRIBUTE_VIRTUAL_ADDRESS_MANAGEMENT_SUPPORTED" in old.text
    assert [f.code for f in old.findings if f.severity == "error"] == ["api-newer-than-target"]
