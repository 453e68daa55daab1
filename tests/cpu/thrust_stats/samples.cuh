// Sample statistics on the GPU with Thrust: the functors and kernel launchers both units share.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                                    \
  do {                                                                                      \
    cudaError_t err_ = (call);                                                              \
    if (err_ != cudaSuccess) {                                                              \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_));   \
      std::exit(1);                                                                         \
    }                                                                                       \
  } while (0)

#define SAMPLE_RANGE 1000
#define BLOCK_SIZE 256

__host__ __device__ inline unsigned mix(unsigned x) {
  x ^= x >> 16;
  x *= 0x45d9f3bu;
  x ^= x >> 16;
  return x;
}

struct Square {
  __host__ __device__ long long operator()(int x) const { return static_cast<long long>(x) * x; }
};

struct AtLeast {
  int bound;
  __host__ __device__ bool operator()(int x) const { return x >= bound; }
};

struct Centre {
  int middle;
  __host__ __device__ int operator()(int x) const { return x - middle; }
};

struct Ramp {
  __host__ __device__ int operator()(int i) const { return (i * 3) % 7; }
};

// samples.cu: kernel launchers on raw device pointers (a device_vector's, through raw_pointer_cast)
void make_samples(int* out, int n, unsigned seed, cudaStream_t stream);
void mark_run_starts(const int* sorted, int* starts, int n, cudaStream_t stream);
