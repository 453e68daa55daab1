#pragma once
#include <cstdio>

#define THREADS 256

#define CUDA_SAFE_CALL(call)                                                   \
  do {                                                                         \
    cudaError_t status = call;                                                 \
    if (status != cudaSuccess) {                                               \
      printf("%s failed: %s\n", #call, cudaGetErrorString(status));            \
      return status;                                                           \
    }                                                                          \
  } while (0)

struct VoteCounts {
  unsigned int above;     // elements > threshold
  unsigned int negative;  // elements < 0
  unsigned int clean;     // blocks whose elements are all finite
};

cudaError_t count_votes(const float* d_x, int n, float threshold, VoteCounts* result);
