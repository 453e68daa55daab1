#include "samples.cuh"

#include <thrust/execution_policy.h>
#include <thrust/reduce.h>

__global__ void make_samples_kernel(int* out, int n, unsigned seed) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = static_cast<int>(mix(static_cast<unsigned>(i) * 2654435761u ^ seed) % SAMPLE_RANGE);
}

// 1 where a sorted run starts.
__global__ void mark_run_starts(const int* sorted, int* starts, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) starts[i] = (i == 0 || sorted[i] != sorted[i - 1]) ? 1 : 0;
}

void make_samples(thrust::device_vector<int>& out, unsigned seed, cudaStream_t stream) {
  int n = static_cast<int>(out.size());
  make_samples_kernel<<<(n + BLOCK_SIZE - 1) / BLOCK_SIZE, BLOCK_SIZE, 0, stream>>>(
      thrust::raw_pointer_cast(out.data()), n, seed);
  CUDA_CHECK(cudaGetLastError());
}

int count_distinct_sorted(const thrust::device_vector<int>& sorted, cudaStream_t stream) {
  int n = static_cast<int>(sorted.size());
  thrust::device_vector<int> starts(n);
  mark_run_starts<<<(n + BLOCK_SIZE - 1) / BLOCK_SIZE, BLOCK_SIZE, 0, stream>>>(
      thrust::raw_pointer_cast(sorted.data()), thrust::raw_pointer_cast(starts.data()), n);
  CUDA_CHECK(cudaGetLastError());
  return thrust::reduce(thrust::cuda::par.on(stream), starts.begin(), starts.end(), 0);
}
