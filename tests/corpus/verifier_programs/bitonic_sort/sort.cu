#include "sort.cuh"

__device__ __forceinline__ void compare_swap(unsigned int& a, unsigned int& b, bool ascending) {
  if ((a > b) == ascending) {
    unsigned int t = a;
    a = b;
    b = t;
  }
}

// All stages with stride < 2*SORT_BLOCK for the sequences of length `size` up to `limit`.
__global__ void bitonic_shared(unsigned int* keys, int size_start, int limit) {
  __shared__ unsigned int s[2 * SORT_BLOCK];
  int base = blockIdx.x * 2 * SORT_BLOCK;
  s[threadIdx.x] = keys[base + threadIdx.x];
  s[threadIdx.x + SORT_BLOCK] = keys[base + threadIdx.x + SORT_BLOCK];
  for (int size = size_start; size <= limit; size <<= 1) {
    int start_stride = size_start == size && size > 2 * SORT_BLOCK ? SORT_BLOCK : size / 2;
    for (int stride = start_stride; stride > 0; stride >>= 1) {
      __syncthreads();
      int pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
      bool ascending = ((base + pos) & size) == 0;
      compare_swap(s[pos], s[pos + stride], ascending);
    }
  }
  __syncthreads();
  keys[base + threadIdx.x] = s[threadIdx.x];
  keys[base + threadIdx.x + SORT_BLOCK] = s[threadIdx.x + SORT_BLOCK];
}

// One stage with a stride too wide for a block: each thread handles one pair.
__global__ void bitonic_global(unsigned int* keys, int size, int stride) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int pos = 2 * t - (t & (stride - 1));
  bool ascending = (pos & size) == 0;
  unsigned int a = keys[pos], b = keys[pos + stride];
  if ((a > b) == ascending) {
    keys[pos] = b;
    keys[pos + stride] = a;
  }
}

cudaError_t bitonic_sort(unsigned int* d_keys, int n) {
  int blocks = n / (2 * SORT_BLOCK);
  bitonic_shared<<<blocks, SORT_BLOCK>>>(d_keys, 2, 2 * SORT_BLOCK);
  for (int size = 4 * SORT_BLOCK; size <= n; size <<= 1) {
    for (int stride = size / 2; stride >= 2 * SORT_BLOCK; stride >>= 1)
      bitonic_global<<<blocks, SORT_BLOCK>>>(d_keys, size, stride);
    bitonic_shared<<<blocks, SORT_BLOCK>>>(d_keys, size, size);
  }
  return cudaGetLastError();
}
