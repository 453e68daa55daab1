// Device helpers shared by the library's units and its test.
#pragma once
#include <cuda_runtime.h>
#include <cstdio>

#define VECOPS_CHECK(call)                                                        \
  do {                                                                            \
    cudaError_t err_ = (call);                                                    \
    if (err_ != cudaSuccess) {                                                    \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
      return 1;                                                                   \
    }                                                                             \
  } while (0)

namespace vecops {
constexpr int kBlock = 256;

__host__ __device__ inline int blocks_for(std::size_t n) {
  return static_cast<int>((n + kBlock - 1) / kBlock);
}

__device__ inline float fused(float a, float x, float y) { return fmaf(a, x, y); }
}  // namespace vecops
