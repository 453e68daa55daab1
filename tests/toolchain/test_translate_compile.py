"""Translations compile with the real clang-19 for the profile they were made for.

ROCm 5.2 uses Debian's HIP headers, ROCm 7.1 the headers from the triton wheels (set up by
``cass-lsp setup --only rocm71``); gfx1100 is wave32, gfx942 wave64. Where the
engine says a construct will not compile (an error finding), the compiler must agree.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cass_lsp import toolchains
from cass_lsp.core import proc
from cass_lsp.translate import Edit, TargetProfile, TranslateOptions, TranslationResult, translate

_TIMEOUT_S = 300.0
GGL = TranslateOptions(launch_style="hipLaunchKernelGGL")

WARP_AND_SHARED = r"""
#include <cstdio>
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cooperative_groups.h>

namespace cg = cooperative_groups;
#define FULL_MASK 0xffffffff
#define CUDA_CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); return 1; } } while (0)

__constant__ float scale;

__device__ float warp_reduce(float v) {
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(FULL_MASK, v, off);
    return v;
}

template <int BLOCK>
__global__ void reduce(const float* __restrict__ in, float* out, int n) {
    __shared__ float partial[BLOCK / 32];
    extern __shared__ float dynamic_smem[];
    register int tid = threadIdx.x;
    int i = blockIdx.x * BLOCK + tid;
    float v = i < n ? in[i] * scale : 0.0f;
    dynamic_smem[tid] = v;
    v = warp_reduce(v);
    unsigned long long vote = __ballot_sync(0xffffffff, v > 0.0f);
    if (__any_sync(0xffffffffu, vote != 0) && (tid & 31) == 0) partial[tid / 32] = v;
    __syncthreads();
    if (tid < 32) {
        v = tid < BLOCK / 32 ? partial[tid] : 0.0f;
        v += __shfl_xor_sync(0xffffffff, v, 1);
        __syncwarp();
        if (tid == 0) atomicAdd(out, v);
    }
    cg::thread_block block = cg::this_thread_block();
    block.sync();
}

__global__ void half_scale(__half* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = __hmul(x[i], __float2half(2.0f));
}

int main() {
    const int n = 1 << 20;
    float *d_in, *d_out, h = 2.0f, ms = 0.0f, result = 0.0f;
    cudaStream_t stream;
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc((void**)&d_out, sizeof(float)));
    CUDA_CHECK(cudaMemcpyToSymbol(scale, &h, sizeof(float)));
    CUDA_CHECK(cudaFuncSetAttribute(reduce<256>, cudaFuncAttributeMaxDynamicSharedMemorySize, 1024));
    CUDA_CHECK(cudaMemsetAsync(d_out, 0, sizeof(float), stream));
    CUDA_CHECK(cudaEventRecord(start, stream));
    reduce<256><<<(n + 255) / 256, 256, 256 * sizeof(float), stream>>>(d_in, d_out, n);
    half_scale<<<n / 256, 256>>>(reinterpret_cast<__half*>(d_in), n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaEventRecord(stop, stream));
    CUDA_CHECK(cudaEventSynchronize(stop));
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    CUDA_CHECK(cudaMemcpy(&result, d_out, sizeof(float), cudaMemcpyDeviceToHost));
    cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
    printf("%s: %f in %f ms (warp %d)\n", prop.name, result, ms, prop.warpSize);
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
    CUDA_CHECK(cudaStreamDestroy(stream));
    return 0;
}
"""

# Debian 12 packages hipRAND and hipSPARSE for ROCm 5.x only.
RAND_AND_SPARSE = r"""
#include <cuda_runtime.h>
#include <curand_kernel.h>
#include <cusparse.h>

__global__ void fill(float* out, unsigned long long seed) {
    curandState_t state;
    curand_init(seed, blockIdx.x * blockDim.x + threadIdx.x, 0, &state);
    out[threadIdx.x] = curand_uniform(&state) + curand_normal(&state);
}

int spmv_setup(int rows, int nnz) {
    cusparseHandle_t handle;
    cusparseMatDescr_t descr;
    if (cusparseCreate(&handle) != CUSPARSE_STATUS_SUCCESS) return 1;
    cusparseCreateMatDescr(&descr);
    cusparseSetMatType(descr, CUSPARSE_MATRIX_TYPE_GENERAL);
    cusparseSetMatIndexBase(descr, CUSPARSE_INDEX_BASE_ZERO);
    float* d;
    cudaMalloc(&d, sizeof(float) * (rows + nnz));
    fill<<<1, 64>>>(d, 42ull);
    cusparseDestroyMatDescr(descr);
    cusparseDestroy(handle);
    return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
"""

# A mask the caller passes in: widened on wave32, a reported error on wave64 with ROCm 7.
MASK_PARAMETER = r"""
__global__ void vote(float* x, unsigned lanes) {
    float v = x[threadIdx.x];
    v += __shfl_down_sync(lanes, v, 1);
    x[threadIdx.x] = v;
}
"""

# Masks kept in 32-bit variables, counted with __popc/__ffs: the declarations become 64-bit.
MASK_VARIABLES = r"""
__global__ void compact(const int* in, int* out, int* count) {
    int x = in[blockIdx.x * blockDim.x + threadIdx.x];
    unsigned active = __activemask();
    unsigned keep = __ballot_sync(active, x > 0);
    int lane = threadIdx.x % warpSize;
    int leader = __ffs(active) - 1;
    int base = 0;
    if (lane == leader) base = atomicAdd(count, __popc(keep));
    base = __shfl_sync(active, base, leader);
    __syncwarp(active);
    if (x > 0) out[base + __popc(keep & ((1u << lane) - 1))] = x;
}
"""


# Calls whose shape differs: typed out-pointers, kernels and symbols passed to the runtime, CUDA
# 12's cudaGraphInstantiate, the value-returning surface read, a host callback.
CALL_SHAPES = r"""
#include <cuda_runtime.h>
__constant__ float coeff[4];
__global__ void scale(float* x) { x[threadIdx.x] *= coeff[threadIdx.x % 4]; }
__global__ void life(cudaSurfaceObject_t in, cudaSurfaceObject_t out) {
    unsigned char c = surf2Dread<unsigned char>(in, threadIdx.x, 0);
    surf2Dwrite(c, out, threadIdx.x, 0);
}
static void CUDART_CB done(void* flag) { *static_cast<int*>(flag) = 1; }
int main() {
    float *host, *dev, *mapped;
    void* symbol;
    size_t pitch;
    cudaFuncAttributes attr;
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    cudaStream_t s;
    int flag = 0;
    cudaStreamCreate(&s);
    cudaHostAlloc(&host, 64, cudaHostAllocMapped);
    cudaHostGetDevicePointer(&mapped, host, 0);
    cudaMallocHost(&host, 64);
    cudaMallocPitch(&dev, &pitch, 64, 4);
    cudaMemcpyToSymbol(coeff, host, sizeof(coeff));
    cudaGetSymbolAddress(&symbol, coeff);
    cudaFuncGetAttributes(&attr, scale);
    cudaFuncSetCacheConfig(scale, cudaFuncCachePreferL1);
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    scale<<<1, 64, 0, s>>>(dev);
    cudaStreamEndCapture(s, &graph);
    cudaGraphInstantiate(&exec, graph, 0);
    cudaGraphLaunch(exec, s);
    cudaLaunchHostFunc(s, done, &flag);
    return cudaStreamSynchronize(s) == cudaSuccess ? 0 : 1;
}
"""


def compile_hip(tmp_path: Path, name: str, text: str, profile: TargetProfile) -> proc.ProcResult:
    try:
        compiler = toolchains.hip_invocation(profile.arch, profile.resolved_rocm())
    except toolchains.ToolchainMissing as exc:
        pytest.fail(str(exc))
    source = tmp_path / f"{name}.hip"
    source.write_text(text, encoding="utf-8")
    return proc.run([*compiler.argv, "-fsyntax-only", "-w", str(source)], timeout=_TIMEOUT_S, env=compiler.env)


def errors(result: TranslationResult) -> list[str]:
    return [f"{f.code}: {f.message}" for f in result.findings if f.severity == "error"]


@pytest.mark.parametrize(
    ("arch", "rocm", "options"),
    [("gfx1100", "5.2", TranslateOptions()), ("gfx1100", "7.1", GGL), ("gfx942", "5.2", GGL),
     ("gfx942", "7.1", TranslateOptions())],
)
def test_warp_shared_memory_program_compiles(tmp_path: Path, arch: str, rocm: str, options: TranslateOptions) -> None:
    profile = TargetProfile(arch, rocm)
    result = translate(WARP_AND_SHARED, profile, options)
    assert errors(result) == []
    if arch == "gfx942":  # the warp-size assumptions of the CUDA code are pointed out
        assert {f.code for f in result.findings} >= {"warp-size-assumption"}
    compiled = compile_hip(tmp_path, "warp", result.text, profile)
    assert compiled.ok, compiled.text()


@pytest.mark.parametrize("rocm", ["5.2", "7.1"])
def test_call_shapes_compile(tmp_path: Path, rocm: str) -> None:
    profile = TargetProfile("gfx1100", rocm)
    result = translate(CALL_SHAPES, profile)
    assert errors(result) == []
    compiled = compile_hip(tmp_path, "calls", result.text, profile)
    assert compiled.ok, compiled.text()


def test_rand_and_sparse_program_compiles_for_rocm52(tmp_path: Path) -> None:
    profile = TargetProfile("gfx1100", "5.2")
    result = translate(RAND_AND_SPARSE, profile)
    assert errors(result) == []
    assert "#include <hiprand/hiprand_kernel.h>" in result.text
    assert "#include <hipsparse/hipsparse.h>" in result.text
    compiled = compile_hip(tmp_path, "rand", result.text, profile)
    assert compiled.ok, compiled.text()


def test_mask_parameter_compiles_on_wave32_and_the_wave64_error_is_real(tmp_path: Path) -> None:
    wave32 = TargetProfile("gfx1100", "7.1")
    ok = translate(MASK_PARAMETER, wave32)
    assert errors(ok) == []
    compiled = compile_hip(tmp_path, "mask32", ok.text, wave32)
    assert compiled.ok, compiled.text()

    wave64 = TargetProfile("gfx942", "7.1")
    reported = translate(MASK_PARAMETER, wave64)
    assert [f.code for f in reported.findings if f.severity == "error"] == ["warp-mask-width"]
    failed = compile_hip(tmp_path, "mask64", reported.text, wave64)
    assert not failed.ok and "The mask must be a 64-bit integer" in failed.text()


@pytest.mark.parametrize(("arch", "rocm"), [("gfx1100", "5.2"), ("gfx942", "5.2"), ("gfx1100", "7.1"),
                                            ("gfx942", "7.1")])
def test_mask_variables_compile_on_every_target(tmp_path: Path, arch: str, rocm: str) -> None:
    profile = TargetProfile(arch, rocm)
    result = translate(MASK_VARIABLES, profile)
    assert errors(result) == []
    compiled = compile_hip(tmp_path, "masks", result.text, profile)
    assert compiled.ok, compiled.text()


def test_the_reported_newer_api_is_really_missing_from_old_headers(tmp_path: Path) -> None:
    src = "#include <cuda_runtime.h>\nvoid f(cudaGraphExec_t* g, cudaGraph_t h) { cudaGraphInstantiateWithParams(g, h, 0); }\n"
    old = TargetProfile("gfx1100", "5.2")
    result = translate(src, old)
    assert [f.code for f in result.findings] == ["api-newer-than-target"]
    forced = result.text.replace("cudaGraphInstantiateWithParams", "hipGraphInstantiateWithParams")
    failed = compile_hip(tmp_path, "newer", forced, old)
    assert not failed.ok and "hipGraphInstantiateWithParams" in failed.text()


# "Translate kernel to HIP" on a kernel whose lane mask is #defined above it.
KERNEL_WITH_MASK_MACRO = r"""
#define FULL_MASK 0xffffffff

__global__ void reduce(float* out, const float* in) {
    float v = in[threadIdx.x];
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(FULL_MASK, v, o);
    if (threadIdx.x == 0) out[blockIdx.x] = v;
}
"""


def test_a_kernel_range_translation_compiles_for_rocm71(tmp_path: Path) -> None:
    profile = TargetProfile("gfx1100", "7.1")
    data = KERNEL_WITH_MASK_MACRO.encode()
    lo = data.index(b"__global__")
    result = translate(KERNEL_WITH_MASK_MACRO, profile, byte_range=(lo, len(data)))
    assert errors(result) == []
    compiled = compile_hip(tmp_path, "kernel", result.text, profile)
    assert compiled.ok, compiled.text()
    # Both edits outside the range are needed: without the runtime include nothing is declared,
    # without the define's widening HIP 7.1 rejects the 32-bit mask.
    outside = [e for e in result.edits if e.start_byte < lo]
    assert [e.new_text for e in outside] == ["#include <hip/hip_runtime.h>\n", "0xffffffffffffffffull"]
    for left_out, message in zip(outside, ["undeclared identifier", "The mask must be a 64-bit integer"],
                                 strict=True):
        partial = apply_edits(data, [e for e in result.edits if e != left_out])
        failed = compile_hip(tmp_path, "partial", partial, profile)
        assert not failed.ok and message in failed.text()


def apply_edits(data: bytes, edits: list[Edit]) -> str:
    out, pos = b"", 0
    for edit in edits:
        out += data[pos:edit.start_byte] + edit.new_text.encode()
        pos = edit.end_byte
    return (out + data[pos:]).decode()


# What NVIDIA's cuda-samples use that the rule translation did not compile: mergeSort's umin,
# simpleIPC's prop.unifiedAddressing (ROCm 5.2), CUDA 13's graph calls with null edge data,
# simpleIPC's cudaEventCreate(&e, flags), streamOrderedAllocationP2P's two-argument
# cudaStreamWaitEvent, simpleTexture3D's flag-less cudaMalloc3DArray, simpleStreams' CUDART_VERSION,
# cudaGraphsPerfScaling's cudaGraphUpload (HIP 5.3); eigenvalues' min(unsigned, blockDim.x); the
# driver-API and NVRTC samples' helper_cuda_drvapi.h/nvrtc_helper.h (cuda.h's guard, cuGetErrorString,
# CUDA 13's CUctxCreateParams, matrixMulDrv's occupancy call, NVRTC's options array and CUBIN), helper_cuda.h's _cudaGetErrorEnum
# overloads on cudaError_t and CUresult (one HIP type).
SAMPLE_GAPS = r"""
#define CUDA_DRIVER_API
#include <cuda_runtime.h>
#include <cuda.h>
#include <builtin_types.h>
#ifdef __DRIVER_TYPES_H__
static const char* error_enum(cudaError_t error) { return cudaGetErrorName(error); }
#endif
#ifdef CUDA_DRIVER_API
static const char* error_enum(CUresult error) {
    const char* name = NULL;
    cuGetErrorName(error, &name);
    return name;
}
#endif
#include <nvrtc.h>
__global__ void chunk(unsigned rem, unsigned* out) { out[0] = min(rem, blockDim.x); }
#ifdef __cuda_cuda_h__
void check(CUresult err) { const char* s = NULL; cuGetErrorString(err, &s); }
#endif
int occupancy(CUfunction f) {
    int grid = 0, block = 0;
    return cuOccupancyMaxPotentialBlockSize(&grid, &block, f, 0, 1024, 0) == CUDA_SUCCESS ? block : 0;
}
int context(CUdevice dev, CUcontext* c) {
    CUctxCreateParams params = {};
    return cuCtxCreate(c, &params, 0, dev) == CUDA_SUCCESS;
}
size_t cubin(nvrtcProgram prog, char* code) {
    char* options[2] = {NULL, NULL};
    size_t size = 0;
    nvrtcCompileProgram(prog, 0, options);
    nvrtcGetCUBINSize(prog, &size);
    nvrtcGetCUBIN(prog, code);
    return size;
}
__device__ unsigned merge_pos(unsigned pos, unsigned stride, unsigned L) { return umin(pos + stride, L); }
int uva(int dev) {
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, dev);
    return prop.unifiedAddressing && prop.asyncEngineCount > 0;
}
int deps(cudaGraph_t g, cudaGraphNode_t* a, cudaGraphNode_t* b, cudaStream_t s) {
    cudaStreamUpdateCaptureDependencies(s, a, NULL, 1, cudaStreamSetCaptureDependencies);
    return cudaGraphAddDependencies(g, a, b, NULL, 1) == cudaSuccess;
}
int upload(cudaGraphExec_t e, cudaStream_t s) { return cudaGraphUpload(e, s) == cudaSuccess; }
int overloads(cudaStream_t s, cudaArray_t* array, cudaChannelFormatDesc* desc, cudaExtent extent) {
    cudaEvent_t e;
    cudaEventCreate(&e, cudaEventDisableTiming | cudaEventInterprocess);
    cudaStreamWaitEvent(s, e);
#if CUDART_VERSION >= 4000
    return cudaMalloc3DArray(array, desc, extent) == cudaSuccess;
#else
    return cuda_before_4_has_no_such_call();
#endif
}
"""


@pytest.mark.parametrize("rocm", ["5.2", "7.1"])
def test_the_sample_gaps_compile(tmp_path: Path, rocm: str) -> None:
    profile = TargetProfile("gfx1100", rocm)
    result = translate(SAMPLE_GAPS, profile)
    assert errors(result) == []
    compiled = compile_hip(tmp_path, "gaps", result.text, profile)
    assert compiled.ok, compiled.text()


@pytest.mark.parametrize("rocm", ["5.2", "7.1"])
def test_directed_rounding_atomics_and_cg_reduce_compile(tmp_path: Path, rocm: str) -> None:
    """interval's __fadd_rd & co., systemWideAtomics' atomicInc_system, reduction's cg::reduce and
    meta_group_rank: the program tests/cpu/test_sample_gaps.py runs against CUDA."""
    profile = TargetProfile("gfx1100", rocm)
    program = Path(__file__).parent.parent / "cpu" / "gaps" / "sample_gaps.cu"
    result = translate(program.read_text(encoding="utf-8"), profile)
    assert errors(result) == []
    compiled = compile_hip(tmp_path, "sample_gaps", result.text, profile)
    assert compiled.ok, compiled.text()


GL_INTEROP = r"""
#include <cuda_runtime.h>
#include <cuda_gl_interop.h>
struct cudaGraphicsResource *pbo;
int f(unsigned int buffer, cudaStream_t s) {
    cudaGraphicsGLRegisterBuffer(&pbo, buffer, cudaGraphicsMapFlagsWriteDiscard);
    cudaGraphicsMapResources(1, &pbo, s);
    void* p; size_t n;
    cudaGraphicsResourceGetMappedPointer(&p, &n, pbo);
    return cudaGraphicsUnmapResources(1, &pbo, s) == cudaSuccess;
}
"""


def test_memory_location_calls_compile_for_rocm71(tmp_path: Path) -> None:
    """UnifiedMemoryPerf's CUDA 13 prefetch to a cudaMemLocation (HIP 7.1's hipMemPrefetchAsync_v2)."""
    source = ("#include <cuda_runtime.h>\nint f(float* p, size_t n, cudaStream_t s) {\n  cudaMemLocation host;\n"
              "  host.type = cudaMemLocationTypeHost;\n  cudaMemAdvise(p, n, cudaMemAdviseSetReadMostly, host);\n"
              "  return cudaMemPrefetchAsync(p, n, host, 0, s) == cudaSuccess;\n}\n")
    profile = TargetProfile("gfx1100", "7.1")
    result = translate(source, profile)
    assert errors(result) == []
    compiled = compile_hip(tmp_path, "location", result.text, profile)
    assert compiled.ok, compiled.text()


def test_gl_interop_compiles_for_rocm71(tmp_path: Path) -> None:
    """The GL-interop samples' resource handling (simpleCUDA2GL, boxFilter, particles): HIP 6.2's header."""
    profile = TargetProfile("gfx1100", "7.1")
    result = translate(GL_INTEROP, profile)
    assert errors(result) == []
    compiled = compile_hip(tmp_path, "gl", result.text, profile)
    assert compiled.ok, compiled.text()


def test_stream_attributes_and_sparse_order_compile_where_hip_has_them(tmp_path: Path) -> None:
    """simpleAttributes' stream access-policy window (HIP 7.1); hipSPARSE 5.3's column order (the
    7.1 profile here has hipSPARSE 5.3 too, which lacks HIPSPARSE_ORDER_COL: checked on 5.2 only)."""
    attributes = ("#include <cuda_runtime.h>\nint f(cudaStream_t s, void* p) {\n  cudaStreamAttrValue v;\n"
                  "  v.accessPolicyWindow.base_ptr = p;\n  v.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;\n"
                  "  return cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v) == cudaSuccess;\n}\n")
    profile = TargetProfile("gfx1100", "7.1")
    result = translate(attributes, profile)
    assert errors(result) == []
    compiled = compile_hip(tmp_path, "attributes", result.text, profile)
    assert compiled.ok, compiled.text()
    order = "#include <cusparse.h>\ncusparseOrder_t order() { return CUSPARSE_ORDER_COL; }\n"
    old = TargetProfile("gfx1100", "5.2")
    result = translate(order, old)
    assert errors(result) == []
    compiled = compile_hip(tmp_path, "order", result.text, old)
    assert compiled.ok, compiled.text()
