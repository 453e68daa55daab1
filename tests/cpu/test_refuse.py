"""unsupported(): constructs the CPU runtime cannot emulate, with their lines."""

from __future__ import annotations

import pytest

from cass_lsp.cpu import Unsupported, libraries, refuse, unsupported


def _constructs(text: str) -> list[tuple[str, int]]:
    return [(u.construct, u.line) for u in unsupported(text)]


@pytest.mark.parametrize(
    ("text", "construct", "line"),
    [
        ('__global__ void k(int* x) {\n  asm volatile("tanh.approx.f32 %0, %1;" : "=f"(*x) : "f"(1.f));\n}\n',
         "inline assembly", 1),
        ('#define TANH(y, x) asm("tanh.approx.f32 %0, %1;" : "=f"(y) : "f"(x))\n', "inline assembly", 0),
        ("texture<float, 1> tex;\n__global__ void k(float* o) { o[0] = tex1Dfetch(tex, 0); }\n", "textures", 0),
        ("void f(float* d, size_t pitch) {\n  cudaBindTexture2D(0, tex, d, desc, 64, 64, pitch);\n}\n", "textures", 1),
        ("__global__ void k(cudaTextureObject_t t, float* o) { o[0] = tex2DLod<float>(t, 0, 0, 1); }\n", "textures", 0),
        ("void f(cudaMipmappedArray_t* m) { cudaMallocMipmappedArray(m, &desc, extent, 4); }\n", "textures", 0),
        ("__global__ void k(cudaSurfaceObject_t s) { surfCubemapwrite(1.0f, s, 0, 0, 0); }\n", "surfaces", 0),
        ("void f(cudaGraph_t g, cudaKernelNodeParams* p) {\n  cudaGraphAddKernelNode(&n, g, 0, 0, p);\n}\n",
         "graphs", 1),
        ("void f(hipGraphExec_t e, hipGraph_t g) { hipGraphExecUpdate(e, g, 0, 0); }\n", "graphs", 0),
        ("void f(cudaStream_t s) { cudaStreamGetCaptureInfo(s, &status, &id); }\n", "graphs", 0),
        ("struct cudaGraphicsResource* r;\nvoid f() { cudaGraphicsMapResources(1, &r, 0); }\n", "graphics interop", 0),
        ("void f(GLuint b) { cudaGraphicsGLRegisterBuffer(&r, b, 0); }\n", "graphics interop", 0),
        ("void f(EGLStreamKHR s) { cudaEGLStreamConsumerConnect(&c, s); }\n", "graphics interop", 0),
        ("__global__ void k() {\n  auto g = cooperative_groups::this_multi_grid();\n  g.sync();\n}\n",
         "multi-device cooperative launch", 1),
        ("__global__ void k(int* d, int* s) {\n  cg::memcpy_async(cg::this_thread_block(), d, s, 4);\n}\n",
         "cooperative groups", 1),
        ("__global__ void child() {}\n__global__ void parent() {\n  child<<<1, 1>>>();\n}\n", "dynamic parallelism", 2),
        ("#include <cublasLt.h>\n", "library: cuBLAS", 0),
        ("#include <cufftXt.h>\n", "library: cuFFT", 0),
        ("#include <curand_mtgp32_host.h>\n", "library: cuRAND", 0),
        ("__global__ void k(curandState* s, unsigned* o) { o[0] = curand_poisson(s, 4.0); }\n", "library: cuRAND", 0),
        ("void f(hiprandGenerator_t g) { hiprandCreateGenerator(&g, HIPRAND_RNG_QUASI_SOBOL32); }\n",
         "library: hipRAND", 0),
        ("#include <hipblaslt/hipblaslt.h>\n", "library: hipBLAS", 0),
        ("#include <rocblas/rocblas.h>\n", "library: rocBLAS", 0),
        ("#include <thrust/system/cuda/memory_resource.h>\n", "library: Thrust", 0),
        ("#include <thrust/system/omp/execution_policy.h>\n", "library: Thrust", 0),
        ("using pinned = thrust::system::cuda::experimental::pinned_allocator<float>;\n", "library: Thrust", 0),
        ("void f() {\n  thrust::cuda_cub::throw_on_error(cudaGetLastError(), \"sort\");\n}\n", "library: Thrust", 1),
        ("void f(int* a, int* b) { thrust::sort(thrust::omp::par, a, b); }\n", "library: Thrust", 0),
        ("#define POLICY thrust::cuda::par_async\n", "library: Thrust", 0),
        ("void f(cublasHandle_t h) {\n  cublasSrotg(h);\n}\n", "library: cuBLAS", 1),
        ("void f() { cuModuleLoad(&m, \"k.ptx\"); }\n", "driver-API modules", 0),
        ("__global__ void k(float* x) { x[0] = __builtin_amdgcn_readfirstlane(1); }\n", "target builtins", 0),
        ("#include <mma.h>\n", "warp matrix (WMMA)", 0),
        ("#include <cuda_fp8.h>\n", "fp8", 0),
        ("__global__ void k(__nv_fp8_e4m3* x) { x[0] = __nv_fp8_e4m3(1.0f); }\n", "fp8", 0),
        ("void f() { cudaLaunchKernel((void*)k, 1, 1, args, 0, 0); }\n", "untyped kernel launch", 0),
        ("void f(cudaIpcMemHandle_t* h, void* p) { cudaIpcGetMemHandle(h, p); }\n", "multi-process/3-D memory API", 0),
        ("void f(cudaMemPool_t m, void* p) {\n cudaMemPoolPtrExportData d; cudaMemPoolExportPointer(&d, p); }\n",
         "multi-process/3-D memory API", 1),
    ],
)
def test_detected(text: str, construct: str, line: int) -> None:
    assert (construct, line) in _constructs(text)


def test_cooperative_groups_and_grid_sync_are_supported() -> None:
    text = """\
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(float* x) {
  cg::grid_group grid = cg::this_grid();
  auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  x[grid.thread_rank()] = tile.shfl_down(x[grid.thread_rank()], 1);
  grid.sync();
}
void f(float* x) { cudaLaunchCooperativeKernel((void*)k, 2, 64, (void**)&x, 0, 0); }
"""
    assert unsupported(text) == []


def test_stream_capture_and_the_graph_nodes_the_runtime_runs_are_supported() -> None:
    text = """\
void f(cudaStream_t s, hipStream_t h, cudaGraph_t g, cudaGraphExec_t e, cudaGraphNode_t n, cudaHostNodeParams* p) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaStreamEndCapture(s, &g);
  hipStreamBeginCapture(h, hipStreamCaptureModeGlobal);
  cudaGraphAddHostNode(&n, g, nullptr, 0, p);
  cudaGraphAddDependencies(g, &n, &n, 1);
  cudaGraphInstantiate(&e, g, 0);
  hipGraphLaunch(e, h);
  cudaGraphExecDestroy(e);
  cudaGraphDestroy(g);
}
"""
    assert unsupported(text) == []


def test_texture_and_surface_objects_are_supported() -> None:
    text = """\
#include <cuda_runtime.h>
__global__ void k(cudaTextureObject_t t, cudaSurfaceObject_t s, float* o) {
  o[0] = tex2D<float>(t, 0.5f, 0.5f) + tex1Dfetch<float>(t, 0) + tex3D<float>(t, 0, 0, 0);
  surf2Dwrite(o[0], s, 0, 0);
}
void f(cudaArray_t a, cudaChannelFormatDesc* d, cudaMemcpy3DParms* p) {
  cudaMallocArray(&a, d, 64, 64);
  cudaMemcpy3D(p);
  cudaFreeArray(a);
}
"""
    assert unsupported(text) == []


def test_bfloat16_is_supported_on_both_sides() -> None:
    cuda = "#include <cuda_bf16.h>\n__global__ void k(__nv_bfloat16* x) { x[0] = __hadd(x[0], __float2bfloat16(1.f)); }\n"
    hip = "#include <hip/hip_bf16.h>\n__global__ void k(__hip_bfloat16* x) { x[0] = __hadd(x[0], x[1]); }\n"
    legacy = "#include <hip/hip_bfloat16.h>\n__global__ void k(hip_bfloat16* x) { x[0] = x[0] + x[1]; }\n"
    assert unsupported(cuda) == unsupported(hip) == unsupported(legacy) == []


def test_plain_kernel_is_supported() -> None:
    text = """\
#include <cuda_runtime.h>
// asm("nop") in a comment and "tex2D" in a string do not count
__global__ void k(float* texture, int n) {
  __shared__ float s[256];
  s[threadIdx.x] = texture[threadIdx.x];
  __syncthreads();
  printf("tex2D %f\\n", s[0]);
}
int main() { k<<<1, 256>>>(nullptr, 0); }
"""
    assert unsupported(text) == []


def test_a_typed_hip_launch_kernel_is_the_runtime_apis_and_the_driver_apis_launch_is_refused() -> None:
    """hipLaunchKernel is cudaLaunchKernel's HIP name (it runs, typed); cuLaunchKernel's is
    hipModuleLaunchKernel."""
    assert unsupported("void f(void** a) { hipLaunchKernel(k, dim3(1), dim3(4), a, 0, 0); }\n") == []
    text = "void f(CUfunction c, hipFunction_t h) {\n  cuLaunchKernel(c, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0);\n" \
           "  hipModuleLaunchKernel(h, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0);\n}\n"
    assert _constructs(text) == [("driver-API modules", 1), ("driver-API modules", 2)]


def test_thrust_runs_on_its_cpp_device_system_with_the_gpu_backends_policies_mapped() -> None:
    text = """\
#include <thrust/device_vector.h>
#include <thrust/sort.h>
#include <thrust/system/cuda/execution_policy.h>
#include <thrust/system/hip/execution_policy.h>
#include <thrust/system/cpp/execution_policy.h>
#include <thrust/system/error_code.h>
#define ON(s) thrust::cuda::par_nosync.on(s)
void f(thrust::device_vector<int>& v, cudaStream_t s) {
  thrust::sort(thrust::cuda::par.on(s), v.begin(), v.end());
  thrust::sort(thrust::hip::par.on(s), v.begin(), v.end());
  thrust::sort(ON(s), v.begin(), v.end());
  thrust::sort(thrust::device, v.begin(), v.end());
}
"""
    assert unsupported(text) == []


def test_thrust_is_refused_by_name_without_cccl_headers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(refuse, "cccl_include_dir", lambda: None)
    (found,) = unsupported("#include <thrust/sort.h>\n")
    assert found.construct == "library: Thrust" and "nvidia-cuda-cccl" in found.detail
    # the runtime's own Thrust headers (its policies) include CCCL's: refused alike
    found = unsupported("#include <thrust/execution_policy.h>\n#include <thrust/system/cuda/execution_policy.h>\n")
    assert [(u.line, u.construct) for u in found] == [(0, "library: Thrust"), (1, "library: Thrust")]


def test_of_two_refused_names_on_a_line_the_first_is_named_every_time() -> None:
    """The query's capture lists come back in an order that changes with the tree; the message must
    not (it is the could-not-verify reason a user reads)."""
    for padding in range(8):
        text = ("void f(cusolverDnHandle_t h, float* a) {\n" + "  a[0] += a[1];\n" * padding
                + "  cusolverStatus_t s = cusolverDnSpotrf(h, a);\n}\n")
        (_, found) = unsupported(text)
        assert found.detail == "cusolverStatus_t: cuSOLVER has no CPU implementation here", padding


def test_result_type() -> None:
    found = unsupported('__global__ void k() { asm("trap;"); }\n')
    assert found == [Unsupported("inline assembly", 0, found[0].detail)]
    assert "PTX" in found[0].detail


def test_the_curand_the_runtime_executes_is_not_refused_and_the_rest_is_by_name() -> None:
    text = """\
#include <curand.h>
#include <hiprand/hiprand_kernel.h>
#define CURAND_CHECK(x) do { if ((x) != CURAND_STATUS_SUCCESS) printf("cuRAND error %d\\n", x); } while (0)
__global__ void k(hiprandStatePhilox4_32_10_t* s, float4* o) { o[0] = hiprand_normal4(s); }
void f(curandGenerator_t g, double* d) {
  CURAND_CHECK(curandSetGeneratorOrdering(g, CURAND_ORDERING_PSEUDO_LEGACY));
  CURAND_CHECK(curandGenerateNormalDouble(g, d, 64, 0.0, 1.0));
}
"""
    found = unsupported(text)
    assert [(u.construct, u.line) for u in found] == [("library: cuRAND", 5)]
    name, _, why = found[0].detail.partition(": ")  # one finding a line: either name of the line
    assert name in {"curandSetGeneratorOrdering", "CURAND_ORDERING_PSEUDO_LEGACY"}
    assert why == "the CPU runtime does not execute this cuRAND name"
    assert unsupported("#include <hiprand.h>\n#include <rocrand/rocrand_kernel.h>\n") == []  # the older spelling too
    (header,) = unsupported("#include <rocrand/rocrand_mtgp32_11213.h>\n")
    assert header.detail == "#include <rocrand/rocrand_mtgp32_11213.h>: the CPU runtime does not have this rocRAND header"


def test_peer_access_runs_on_the_one_emulated_device() -> None:
    text = """\
void copy(float* dst, const float* src, size_t n) {
  int devices = 0, can = 0;
  cudaGetDeviceCount(&devices);
  if (devices > 1 && cudaDeviceCanAccessPeer(&can, 0, 1) == cudaSuccess && can) {
    cudaDeviceEnablePeerAccess(1, 0);
    cudaMemcpyPeer(dst, 1, src, 0, n);
  }
}
"""
    assert unsupported(text) == []


def test_library_names_tested_by_the_preprocessor_or_behind_its_test_are_not_uses() -> None:
    """helper_cuda.h has a cuBLAS section behind #ifdef CUBLAS_API_H_: present only when cublas_v2.h
    is included, which is refused on its own where it is; the #else branch and an #ifndef body are not
    exempt."""
    text = ("#include <cstdio>\n#ifdef CUBLAS_API_H_\nconst char* f(cublasStatus_t s);\n#else\n"
            "void g() { cublasSrotg(0); }\n#endif\n#ifndef CURAND_H_\nvoid h(curandStateSobol32* s);\n#endif\n"
            "#if defined(_CUFFT_H_) && X\nint k(cufftHandle h);\n#endif\n")
    assert _constructs(text) == [("library: cuBLAS", 4), ("library: cuRAND", 7)]


def test_the_blas_and_fft_libraries_run_and_what_they_do_not_define_is_refused_by_name() -> None:
    text = """\
#include <cublas_v2.h>
#include <hipblas/hipblas.h>
#include <cufft.h>
#include <hipfft/hipfft.h>
#define CUFFT_CHECK(x) do { if ((x) != CUFFT_SUCCESS) printf("cuFFT failed"); } while (0)
void f(cublasHandle_t h, hipblasHandle_t g, cufftHandle p, float* x) {
  cublasSgemmStridedBatched(h, CUBLAS_OP_T, CUBLAS_OP_N, 1, 1, 1, x, x, 1, 1, x, 1, 1, x, x, 1, 1, 1);
  hipblasDgemv(g, HIPBLAS_OP_N, 1, 1, 0, 0, 1, 0, 1, 0, 0, 1);
  CUFFT_CHECK(cufftExecR2C(p, x, 0));
  cublasCgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 1, 1, 1, 0, 0, 1, 0, 1, 0, 0, 1);
  hipblasZdotc_v2(g, 1, 0, 1, 0, 1, 0);
  cublasCtrsm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_UNIT, 1, 1, 0, 0, 1, 0, 1);
  hipblasSrotg(g, x, x, x, x);
  cufftXtExecDescriptor(p, 0, 0, CUFFT_FORWARD);
}
"""
    found = unsupported(text)
    # complex GEMM and dot run; a complex routine the runtime lacks is refused like a real one
    assert [(u.construct, u.line) for u in found] == [("library: cuBLAS", 11), ("library: hipBLAS", 12), ("library: cuFFT", 13)]
    assert found[0].detail == "cublasCtrsm: the CPU runtime does not execute this cuBLAS name"
    assert found[1].detail == "hipblasSrotg: the CPU runtime does not execute this hipBLAS name"
    assert found[2].detail == "cufftXtExecDescriptor: the CPU runtime does not execute this cuFFT name"


def test_without_openblas_a_cublas_program_cannot_run_and_the_package_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(libraries, "_found_by_linker", lambda cxx, shared_object: False)
    [found] = unsupported("#include <hipblas/hipblas.h>\n")
    assert found.construct == "library: hipBLAS"
    assert "apt-get install libopenblas-dev" in found.detail
    assert unsupported("#include <cufft.h>\n") == []  # the FFT is the runtime's own
