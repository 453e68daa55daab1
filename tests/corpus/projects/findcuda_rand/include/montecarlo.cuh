#pragma once
#include <cuda_runtime.h>
#include <curand_kernel.h>

#define MC_CHECK(call)                                                       \
  do {                                                                       \
    cudaError_t e_ = (call);                                                 \
    if (e_ != cudaSuccess) return static_cast<int>(e_);                      \
  } while (0)

namespace mc {
constexpr int kThreads = 128;
// Seeds one Philox state per thread.
void seed(curandStatePhilox4_32_10_t* states, int blocks, unsigned long long seed_value);
// Counts, per thread, how many of `samples` points fall inside the unit circle.
void sample(curandStatePhilox4_32_10_t* states, unsigned* hits, int blocks, int samples);
// pi estimate from the per-thread counts (on the host); returns 0 on success.
int estimate(const unsigned* d_hits, int threads, int samples, double* pi);
}  // namespace mc
