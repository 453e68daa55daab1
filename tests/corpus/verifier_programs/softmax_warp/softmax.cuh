// Row-wise softmax, one warp per row: a template kernel that any unit can launch.
#pragma once
#include <cfloat>
#include <cuda_runtime.h>

#define FULL_MASK 0xffffffff

template <typename T>
__device__ __forceinline__ T warp_max(T v) {
  v = fmaxf(v, __shfl_xor_sync(FULL_MASK, v, 16));
  v = fmaxf(v, __shfl_xor_sync(FULL_MASK, v, 8));
  v = fmaxf(v, __shfl_xor_sync(FULL_MASK, v, 4));
  v = fmaxf(v, __shfl_xor_sync(FULL_MASK, v, 2));
  v = fmaxf(v, __shfl_xor_sync(FULL_MASK, v, 1));
  return v;
}

template <typename T>
__device__ __forceinline__ T warp_sum(T v) {
  for (int mask = 16; mask >= 1; mask /= 2) v += __shfl_xor_sync(FULL_MASK, v, mask);
  return v;
}

template <typename T, int ROWS>
__global__ void softmax_rows(const T* __restrict__ in, T* __restrict__ out, int rows, int cols) {
  int row = blockIdx.x * ROWS + threadIdx.x / 32;
  int lane = threadIdx.x % 32;
  if (row >= rows) return;
  const T* x = in + (size_t)row * cols;
  T m = -FLT_MAX;
  for (int c = lane; c < cols; c += 32) m = fmaxf(m, x[c]);
  m = warp_max(m);
  T s = 0;
  for (int c = lane; c < cols; c += 32) s += expf(x[c] - m);
  s = warp_sum(s);
  for (int c = lane; c < cols; c += 32) out[(size_t)row * cols + c] = expf(x[c] - m) / s;
}
