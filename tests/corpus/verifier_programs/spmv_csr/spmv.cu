#include "csr.h"

#define WARPS_PER_BLOCK 4

// CSR "vector" kernel: one warp per row, lanes stride over the row, shuffle reduction.
__global__ void spmv_vector(int rows, const int* __restrict__ row_ptr, const int* __restrict__ col_idx,
                            const float* __restrict__ values, const float* __restrict__ x, float* __restrict__ y) {
  int warp_id = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int lane = threadIdx.x & 31;
  if (warp_id >= rows) return;
  int begin = row_ptr[warp_id], end = row_ptr[warp_id + 1];
  float sum = 0.0f;
  for (int k = begin + lane; k < end; k += 32) sum += values[k] * x[col_idx[k]];
  sum += __shfl_down_sync(0xffffffff, sum, 16);
  sum += __shfl_down_sync(0xffffffff, sum, 8);
  sum += __shfl_down_sync(0xffffffff, sum, 4);
  sum += __shfl_down_sync(0xffffffff, sum, 2);
  sum += __shfl_down_sync(0xffffffff, sum, 1);
  if (lane == 0) y[warp_id] = sum;
}

void spmv_vector_kernel_launch(int rows, const int* row_ptr, const int* col_idx, const float* values,
                               const float* x, float* y) {
  int threads = 32 * WARPS_PER_BLOCK;
  int blocks = (rows + WARPS_PER_BLOCK - 1) / WARPS_PER_BLOCK;
  spmv_vector<<<blocks, threads>>>(rows, row_ptr, col_idx, values, x, y);
}
