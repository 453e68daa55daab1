#include "common.cuh"

__global__ void count_bins(const unsigned* keys, int n, unsigned* bins, int nbins) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&bins[keys[i] % nbins], 1u);
}

void histogram(const unsigned* d_keys, int n, unsigned* d_bins, int nbins) {
  CHECK(cudaMemset(d_bins, 0, nbins * sizeof(unsigned)));
  count_bins<<<blocks_for(n, 256) < 1024 ? blocks_for(n, 256) : 1024, 256>>>(d_keys, n, d_bins, nbins);
  CHECK(cudaGetLastError());
}
