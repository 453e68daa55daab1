#pragma once
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#ifndef WALK_STEPS
#error "WALK_STEPS comes from the Makefile"
#endif

#define WALK_CHECK(call)                                                              \
  do {                                                                                \
    cudaError_t err_ = (call);                                                        \
    if (err_ != cudaSuccess) {                                                        \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
      std::exit(1);                                                                   \
    }                                                                                 \
  } while (0)

// a counter-based generator: the same stream on every device, whatever the schedule
__host__ __device__ inline unsigned int walk_hash(unsigned int x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

void run_walks(int walkers, unsigned int seed, int* d_end);
