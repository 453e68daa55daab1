// SAXPY followed by a squared-norm reduction: the example `cass-lsp demo` walks through.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                          \
  do {                                                                            \
    cudaError_t err_ = (call);                                                    \
    if (err_ != cudaSuccess) {                                                    \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
      std::exit(1);                                                               \
    }                                                                             \
  } while (0)

constexpr int kBlock = 256;

__global__ void saxpy(int n, float a, const float* __restrict__ x, float* __restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

__device__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_down_sync(0xffffffff, v, offset);
  return v;
}

__global__ void squared_norm(const float* y, float* out, int n) {
  __shared__ float partial[kBlock / 32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? y[i] * y[i] : 0.0f;
  v = warp_sum(v);
  int lane = threadIdx.x & 31;
  int warp = threadIdx.x / 32;
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < kBlock / 32 ? partial[lane] : 0.0f;
    v = warp_sum(v);
    if (lane == 0) atomicAdd(out, v);
  }
}

int main() {
  const int n = 1 << 20;
  std::vector<float> hx(n, 1.0f), hy(n, 2.0f);
  float *dx, *dy, *dnorm;
  CUDA_CHECK(cudaMalloc(&dx, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dy, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dnorm, sizeof(float)));
  CUDA_CHECK(cudaMemcpy(dx, hx.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dy, hy.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(dnorm, 0, sizeof(float)));

  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreate(&stream));
  int grid = (n + kBlock - 1) / kBlock;
  saxpy<<<grid, kBlock, 0, stream>>>(n, 3.0f, dx, dy);
  squared_norm<<<grid, kBlock, 0, stream>>>(dy, dnorm, n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaStreamSynchronize(stream));

  float norm2 = 0.0f;
  CUDA_CHECK(cudaMemcpy(&norm2, dnorm, sizeof(float), cudaMemcpyDeviceToHost));
  std::printf("|y|^2 = %.1f (expected %.1f)\n", norm2, 25.0f * n);
  CUDA_CHECK(cudaStreamDestroy(stream));
  CUDA_CHECK(cudaFree(dx));
  CUDA_CHECK(cudaFree(dy));
  CUDA_CHECK(cudaFree(dnorm));
  return 0;
}
