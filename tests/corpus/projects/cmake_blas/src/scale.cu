#include "vecops.cuh"
#include "vecops.h"

namespace vecops {
namespace {
__global__ void scale_add_kernel(float a, const float* x, float* y, std::size_t n) {
  std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < n) y[i] = fused(a, x[i], y[i]);
}
}  // namespace

int scale_add(float a, const float* x, float* y, std::size_t n) {
  float* dx = nullptr;
  float* dy = nullptr;
  VECOPS_CHECK(cudaMalloc(&dx, n * sizeof(float)));
  VECOPS_CHECK(cudaMalloc(&dy, n * sizeof(float)));
  VECOPS_CHECK(cudaMemcpy(dx, x, n * sizeof(float), cudaMemcpyHostToDevice));
  VECOPS_CHECK(cudaMemcpy(dy, y, n * sizeof(float), cudaMemcpyHostToDevice));
  scale_add_kernel<<<blocks_for(n), kBlock>>>(a, dx, dy, n);
  VECOPS_CHECK(cudaGetLastError());
  VECOPS_CHECK(cudaMemcpy(y, dy, n * sizeof(float), cudaMemcpyDeviceToHost));
  VECOPS_CHECK(cudaFree(dx));
  VECOPS_CHECK(cudaFree(dy));
  return 0;
}
}  // namespace vecops
