#include "radix.cuh"

// Hillis-Steele exclusive scan of one int per thread (blockDim.x == RADIX_THREADS).
__device__ int block_exclusive_scan(int v, int* buf) {
  int tid = threadIdx.x;
  buf[tid] = v;
  __syncthreads();
  for (int offset = 1; offset < RADIX_THREADS; offset <<= 1) {
    int add = tid >= offset ? buf[tid - offset] : 0;
    __syncthreads();
    buf[tid] += add;
    __syncthreads();
  }
  return buf[tid] - v;
}

// LSD radix sort with one bit per pass ("split"): zeros keep their order, then ones.
__global__ void radix_sort_block(unsigned short* keys, int n) {
  __shared__ unsigned short s_keys[RADIX_THREADS];
  __shared__ int scan_buf[RADIX_THREADS];
  int tid = threadIdx.x;
  int g = blockIdx.x * RADIX_THREADS + tid;
  unsigned short key = g < n ? keys[g] : 0xffff;
  for (int bit = 0; bit < KEY_BITS; bit++) {
    int is_zero = ((key >> bit) & 1) == 0;
    int before = block_exclusive_scan(is_zero, scan_buf);
    int zeros = __syncthreads_count(is_zero);
    int dest = is_zero ? before : zeros + (tid - before);
    s_keys[dest] = key;
    __syncthreads();
    key = s_keys[tid];
    __syncthreads();
  }
  if (g < n) keys[g] = key;
}

void block_radix_sort(unsigned short* d_keys, int n) {
  radix_sort_block<<<(n + RADIX_THREADS - 1) / RADIX_THREADS, RADIX_THREADS>>>(d_keys, n);
}
