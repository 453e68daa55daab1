#include "reduce.cuh"

__device__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffff, v, offset);
  return v;
}

__global__ void block_sum(const float* __restrict__ in, float* __restrict__ partial, int n) {
  __shared__ float cache[REDUCE_THREADS];
  int tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x * 2 + threadIdx.x;
  float v = 0.0f;
  if (i < n) v = in[i];
  if (i + blockDim.x < n) v += in[i + blockDim.x];
  cache[tid] = v;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s) cache[tid] += cache[tid + s];
    __syncthreads();
  }
  if (tid < 32) {
    float w = cache[tid] + cache[tid + 32];
    w = warp_sum(w);
    if (tid == 0) partial[blockIdx.x] = w;
  }
}

int reduce_partial(const float* d_in, float* d_partial, int n) {
  int blocks = (n + REDUCE_THREADS * 2 - 1) / (REDUCE_THREADS * 2);
  block_sum<<<blocks, REDUCE_THREADS>>>(d_in, d_partial, n);
  CHECK(cudaGetLastError());
  return blocks;
}
