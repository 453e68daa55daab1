#include "samples.cuh"

__global__ void make_samples_kernel(int* out, int n, unsigned seed) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = static_cast<int>(mix(static_cast<unsigned>(i) * 2654435761u ^ seed) % SAMPLE_RANGE);
}

// 1 where a run of equal sorted samples starts.
__global__ void mark_run_starts_kernel(const int* sorted, int* starts, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) starts[i] = (i == 0 || sorted[i] != sorted[i - 1]) ? 1 : 0;
}

void make_samples(int* out, int n, unsigned seed, cudaStream_t stream) {
  make_samples_kernel<<<(n + BLOCK_SIZE - 1) / BLOCK_SIZE, BLOCK_SIZE, 0, stream>>>(out, n, seed);
  CUDA_CHECK(cudaGetLastError());
}

void mark_run_starts(const int* sorted, int* starts, int n, cudaStream_t stream) {
  mark_run_starts_kernel<<<(n + BLOCK_SIZE - 1) / BLOCK_SIZE, BLOCK_SIZE, 0, stream>>>(sorted, starts, n);
  CUDA_CHECK(cudaGetLastError());
}
