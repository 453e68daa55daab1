#pragma once
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define SCAN_CHECK(call)                                                               \
  do {                                                                                 \
    cudaError_t err_ = (call);                                                         \
    if (err_ != cudaSuccess) {                                                         \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
      std::exit(1);                                                                    \
    }                                                                                  \
  } while (0)

constexpr int kScanBlock = 256;

// inclusive scan of each block of `in` into `out`, block totals into `totals`
void block_scan(const float* in, float* out, float* totals, int n);
