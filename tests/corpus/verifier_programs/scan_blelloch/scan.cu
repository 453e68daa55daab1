#include <cstdio>

#include "scan.cuh"

// Work-efficient (up-sweep / down-sweep) scan of one block's 2*blockDim.x elements.
__global__ void scan_block(int* data, int* block_sums, int n) {
  __shared__ int temp[SCAN_ELEMS];
  int tid = threadIdx.x;
  int base = blockIdx.x * SCAN_ELEMS;
  temp[2 * tid] = base + 2 * tid < n ? data[base + 2 * tid] : 0;
  temp[2 * tid + 1] = base + 2 * tid + 1 < n ? data[base + 2 * tid + 1] : 0;
  int offset = 1;
  for (int d = SCAN_ELEMS >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (tid < d) {
      int ai = offset * (2 * tid + 1) - 1;
      int bi = offset * (2 * tid + 2) - 1;
      temp[bi] += temp[ai];
    }
    offset *= 2;
  }
  if (tid == 0) {
    if (block_sums) block_sums[blockIdx.x] = temp[SCAN_ELEMS - 1];
    temp[SCAN_ELEMS - 1] = 0;
  }
  for (int d = 1; d < SCAN_ELEMS; d *= 2) {
    offset >>= 1;
    __syncthreads();
    if (tid < d) {
      int ai = offset * (2 * tid + 1) - 1;
      int bi = offset * (2 * tid + 2) - 1;
      int t = temp[ai];
      temp[ai] = temp[bi];
      temp[bi] += t;
    }
  }
  __syncthreads();
  if (base + 2 * tid < n) data[base + 2 * tid] = temp[2 * tid];
  if (base + 2 * tid + 1 < n) data[base + 2 * tid + 1] = temp[2 * tid + 1];
}

__global__ void add_offsets(int* data, const int* offsets, int n) {
  int i = blockIdx.x * SCAN_ELEMS + threadIdx.x;
  int add = offsets[blockIdx.x];
  if (i < n) data[i] += add;
  if (i + SCAN_BLOCK < n) data[i + SCAN_BLOCK] += add;
}

void exclusive_scan(int* d_data, int n) {
  int blocks = (n + SCAN_ELEMS - 1) / SCAN_ELEMS;
  int* d_sums;
  cudaMalloc(&d_sums, blocks * sizeof(int));
  scan_block<<<blocks, SCAN_BLOCK>>>(d_data, d_sums, n);
  if (blocks > 1) {
    scan_block<<<1, SCAN_BLOCK>>>(d_sums, nullptr, blocks);
    add_offsets<<<blocks, SCAN_BLOCK>>>(d_data, d_sums, n);
  }
  cudaFree(d_sums);
}
