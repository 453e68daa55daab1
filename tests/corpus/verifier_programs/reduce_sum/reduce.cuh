// Block-level sum reduction: shared-memory tree, then the last warp with shuffles.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                                 \
  do {                                                                              \
    cudaError_t err_ = (call);                                                      \
    if (err_ != cudaSuccess) {                                                      \
      fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(err_), __FILE__, \
              __LINE__);                                                            \
      exit(1);                                                                      \
    }                                                                               \
  } while (0)

#define REDUCE_THREADS 256

// Partial sums, one per block; returns the number of blocks used.
int reduce_partial(const float* d_in, float* d_partial, int n);
