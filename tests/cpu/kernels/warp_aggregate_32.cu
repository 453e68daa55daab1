// Warp-aggregated atomic counter written for 32-wide warps: lane = t & 31, a 32-bit ballot and a
// 0xffffffff mask. Correct on NVIDIA; on a 64-wide warp the upper 32 lanes are miscounted.
#include <cstdio>
#include <cuda_runtime.h>

__device__ int count_if_positive(int* counter, int value) {
  unsigned lane = threadIdx.x & 31;
  unsigned mask = __ballot_sync(0xffffffff, value > 0);
  int leader = __ffs(mask) - 1;
  int base = 0;
  if (value > 0 && lane == (unsigned)leader) base = atomicAdd(counter, __popc(mask));
  base = __shfl_sync(0xffffffff, base, leader);
  return base + __popc(mask & ((1u << lane) - 1));
}

__global__ void filter_count(const int* in, int* counter) {
  count_if_positive(counter, in[blockIdx.x * blockDim.x + threadIdx.x]);
}

int main() {
  const int blocks = 4, threads = 256, n = blocks * threads;
  int h[n];
  for (int i = 0; i < n; ++i) h[i] = (i % 64) < 40 ? 1 : -1;  // lanes 0..39 of each 64 pass
  int *d, *dcount, count = 0;
  cudaMalloc(&d, sizeof h);
  cudaMalloc(&dcount, sizeof(int));
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemcpy(dcount, &count, sizeof(int), cudaMemcpyHostToDevice);
  filter_count<<<blocks, threads>>>(d, dcount);
  cudaMemcpy(&count, dcount, sizeof(int), cudaMemcpyDeviceToHost);
  printf("count=%d\n", count);
  return 0;
}
