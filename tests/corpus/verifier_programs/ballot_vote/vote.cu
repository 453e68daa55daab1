#include "vote.cuh"

// Warp votes: each warp ballots its predicates and one lane adds the population counts.
__global__ void vote_kernel(const float* x, int n, float threshold, VoteCounts* counts) {
  __shared__ unsigned int block_clean;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % warpSize;
  if (threadIdx.x == 0) block_clean = 1;
  __syncthreads();
  float v = i < n ? x[i] : 0.0f;
  unsigned above = __ballot_sync(0xffffffff, i < n && v > threshold);
  unsigned negative = __ballot_sync(0xffffffff, i < n && v < 0.0f);
  int finite = __all_sync(0xffffffff, isfinite(v));
  if (lane == 0) {
    atomicAdd(&counts->above, __popc(above));
    atomicAdd(&counts->negative, __popc(negative));
    if (!finite) atomicAnd(&block_clean, 0u);
  }
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd(&counts->clean, block_clean);
}

cudaError_t count_votes(const float* d_x, int n, float threshold, VoteCounts* result) {
  VoteCounts* d_counts;
  CUDA_SAFE_CALL(cudaMalloc(&d_counts, sizeof(VoteCounts)));
  CUDA_SAFE_CALL(cudaMemset(d_counts, 0, sizeof(VoteCounts)));
  vote_kernel<<<(n + THREADS - 1) / THREADS, THREADS>>>(d_x, n, threshold, d_counts);
  CUDA_SAFE_CALL(cudaGetLastError());
  CUDA_SAFE_CALL(cudaMemcpy(result, d_counts, sizeof(VoteCounts), cudaMemcpyDeviceToHost));
  CUDA_SAFE_CALL(cudaFree(d_counts));
  return cudaSuccess;
}
