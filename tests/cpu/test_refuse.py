"""unsupported(): constructs the CPU runtime cannot emulate, with their lines."""

from __future__ import annotations

import pytest

from cass_lsp.cpu import Unsupported, refuse, unsupported


def _constructs(text: str) -> list[tuple[str, int]]:
    return [(u.construct, u.line) for u in unsupported(text)]


@pytest.mark.parametrize(
    ("text", "construct", "line"),
    [
        ('__global__ void k(int* x) {\n  asm volatile("tanh.approx.f32 %0, %1;" : "=f"(*x) : "f"(1.f));\n}\n',
         "inline assembly", 1),
        ('#define TANH(y, x) asm("tanh.approx.f32 %0, %1;" : "=f"(y) : "f"(x))\n', "inline assembly", 0),
        ("texture<float, 1> tex;\n__global__ void k(float* o) { o[0] = tex1Dfetch(tex, 0); }\n", "textures", 0),
        ("__global__ void k(cudaTextureObject_t t, float* o) { o[0] = tex2D<float>(t, 0, 0); }\n", "textures", 0),
        ("__global__ void k(cudaSurfaceObject_t s) { surf2Dwrite(1.0f, s, 0, 0); }\n", "surfaces", 0),
        ("void f() {\n  cudaGraph_t g;\n  cudaGraphCreate(&g, 0);\n}\n", "graphs", 1),
        ("void f(hipStream_t s) { hipStreamBeginCapture(s, hipStreamCaptureModeGlobal); }\n", "graphs", 0),
        ("#include <cooperative_groups.h>\n", "cooperative groups", 0),
        ("__global__ void k() {\n  auto g = cooperative_groups::this_grid();\n  g.sync();\n}\n",
         "grid-wide synchronization", 1),
        ("__global__ void child() {}\n__global__ void parent() {\n  child<<<1, 1>>>();\n}\n", "dynamic parallelism", 2),
        ("#include <cublas_v2.h>\n", "library: cuBLAS", 0),
        ("#include <cufft.h>\n", "library: cuFFT", 0),
        ("#include <curand_kernel.h>\n", "library: cuRAND", 0),
        ("#include <hipblas/hipblas.h>\n", "library: hipBLAS", 0),
        ("#include <rocblas/rocblas.h>\n", "library: rocBLAS", 0),
        ("#include <thrust/system/cuda/memory_resource.h>\n", "library: Thrust", 0),
        ("#include <thrust/system/omp/execution_policy.h>\n", "library: Thrust", 0),
        ("using pinned = thrust::system::cuda::experimental::pinned_allocator<float>;\n", "library: Thrust", 0),
        ("void f() {\n  thrust::cuda_cub::throw_on_error(cudaGetLastError(), \"sort\");\n}\n", "library: Thrust", 1),
        ("void f(int* a, int* b) { thrust::sort(thrust::omp::par, a, b); }\n", "library: Thrust", 0),
        ("#define POLICY thrust::cuda::par_async\n", "library: Thrust", 0),
        ("void f(cublasHandle_t h) {\n  cublasSgemm(h);\n}\n", "library: cuBLAS", 0),
        ("void f() { cuModuleLoad(&m, \"k.ptx\"); }\n", "driver-API modules", 0),
        ("__global__ void k(float* x) { x[0] = __builtin_amdgcn_readfirstlane(1); }\n", "target builtins", 0),
        ("#include <mma.h>\n", "warp matrix (WMMA)", 0),
        ("void f() { cudaLaunchKernel((void*)k, 1, 1, args, 0, 0); }\n", "untyped kernel launch", 0),
        ("void f(cudaIpcMemHandle_t* h, void* p) { cudaIpcGetMemHandle(h, p); }\n", "multi-process/3-D memory API", 0),
    ],
)
def test_detected(text: str, construct: str, line: int) -> None:
    assert (construct, line) in _constructs(text)


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


def test_result_type() -> None:
    found = unsupported('__global__ void k() { asm("trap;"); }\n')
    assert found == [Unsupported("inline assembly", 0, found[0].detail)]
    assert "PTX" in found[0].detail


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
    is included, which is refused on its own; the #else branch and an #ifndef body are not exempt."""
    text = ("#include <cstdio>\n#ifdef CUBLAS_API_H_\nconst char* f(cublasStatus_t s);\n#else\n"
            "void g() { cublasCreate(0); }\n#endif\n#ifndef CURAND_H_\nvoid h(curandState* s);\n#endif\n"
            "#if defined(_CUFFT_H_) && X\nint k(cufftHandle h);\n#endif\n")
    assert _constructs(text) == [("library: cuBLAS", 4), ("library: cuRAND", 7)]
