"""HIP -> CUDA, and CUDA -> HIP -> CUDA round trips on simple programs."""

from __future__ import annotations

import pytest

from cass_lsp.translate import TargetProfile, TranslateOptions, translate

R52 = TargetProfile("gfx1100", "5.2")
R71 = TargetProfile("gfx1100", "7.1")

VECTOR_ADD = """#include <cstdio>
#include <cuda_runtime.h>

__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

int main() {
    const int n = 1024;
    float *a, *b, *c;
    cudaMalloc(&a, n * sizeof(float));
    cudaMalloc(&b, n * sizeof(float));
    cudaMallocManaged(&c, n * sizeof(float));
    cudaStream_t stream;
    cudaStreamCreate(&stream);
    add<<<n / 256, 256, 0, stream>>>(a, b, c, n);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) printf("%s\\n", cudaGetErrorString(err));
    cudaStreamSynchronize(stream);
    cudaStreamDestroy(stream);
    cudaFree(a); cudaFree(b); cudaFree(c);
    return 0;
}
"""

WARP_SUM = """#include <cuda_runtime.h>
#include <curand_kernel.h>
#include <cublas_v2.h>

__constant__ float scale[4];

__device__ float warp_sum(float v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
    return v;
}

__global__ void noise(float* out, unsigned long long seed) {
    curandState state;
    curand_init(seed, threadIdx.x, 0, &state);
    float v = curand_uniform(&state) * scale[0];
    v = warp_sum(v);
    if (__all_sync(0xffffffff, v > 0.0f) && (threadIdx.x % 32) == 0) out[blockIdx.x] = v;
}

void run(cublasHandle_t h, float* d, const float* host) {
    cudaMemcpyToSymbol(scale, host, sizeof(float) * 4);
    dim3 grid(8), block(64);
    noise<<<grid, block>>>(d, 1234ull);
    float r = 0.0f;
    cublasSasum(h, 8, d, 1, &r);
    cudaDeviceSynchronize();
}
"""


@pytest.mark.parametrize("program", [VECTOR_ADD, WARP_SUM], ids=["vector_add", "warp_sum"])
@pytest.mark.parametrize("profile", [R52, R71], ids=["rocm5.2", "rocm7.1"])
@pytest.mark.parametrize("options", [TranslateOptions(), TranslateOptions(launch_style="hipLaunchKernelGGL")],
                         ids=["chevron", "ggl"])
def test_cuda_to_hip_to_cuda_gives_the_program_back(program: str, profile: TargetProfile,
                                                    options: TranslateOptions) -> None:
    there = translate(program, profile, options)
    assert "cuda" not in there.text.replace("cuda_runtime", "")  # fully translated
    back = translate(there.text, reverse=True)
    assert back.text == program
    assert back.findings == []


def test_hip_sources_translate_to_cuda() -> None:
    src = ("#include <hip/hip_runtime.h>\n#include <hipcub/hipcub.hpp>\n"
           "__global__ void k(float* x) { x[0] = __shfl_xor(x[0], 1); x[1] = __ballot(x[0] > 0); }\n"
           "void f(float* x, hipStream_t s) {\n"
           "  hipLaunchKernelGGL(HIP_KERNEL_NAME(k), dim3(1), dim3(64), 128, s, x);\n"
           "  hipcub::DeviceReduce::Sum(nullptr, n, x, x, 4);\n"
           "  hipError_t e = hipDeviceSynchronize();\n}\n")
    out = translate(src, reverse=True)
    assert out.text == ("#include <cuda_runtime.h>\n#include <cub/cub.cuh>\n"
                        "__global__ void k(float* x) { x[0] = __shfl_xor_sync(0xffffffff, x[0], 1); "
                        "x[1] = __ballot_sync(0xffffffff, x[0] > 0); }\n"
                        "void f(float* x, cudaStream_t s) {\n"
                        "  k<<<1, 64, 128, s>>>(x);\n"
                        "  cub::DeviceReduce::Sum(nullptr, n, x, x, 4);\n"
                        "  cudaError_t e = cudaDeviceSynchronize();\n}\n")
    assert out.stats["launch"] == 1


def test_reverse_leaves_plain_cuda_alone() -> None:
    assert translate(VECTOR_ADD, reverse=True).text == VECTOR_ADD
