#include "common.h"

// Privatised histogram: each block counts into shared memory, then merges with global atomics.
__global__ void histogram_kernel(const unsigned char* data, int n, unsigned int* bins) {
  __shared__ unsigned int local[NUM_BINS];
  for (int b = threadIdx.x; b < NUM_BINS; b += blockDim.x) local[b] = 0;
  __syncthreads();
  int stride = blockDim.x * gridDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    unsigned int bin = data[i] % NUM_BINS;
    atomicAdd(&local[bin], 1u);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < NUM_BINS; b += blockDim.x)
    if (local[b] > 0) atomicAdd(&bins[b], local[b]);
}

void histogram_gpu(const unsigned char* d_data, int n, unsigned int* d_bins, int blocks) {
  CHECK(cudaMemset(d_bins, 0, NUM_BINS * sizeof(unsigned int)));
  histogram_kernel<<<blocks, BLOCK_SIZE>>>(d_data, n, d_bins);
  CHECK(cudaGetLastError());
}
