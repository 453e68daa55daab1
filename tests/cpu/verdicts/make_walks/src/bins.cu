// The histogram's kernels, included by histogram.cu (one unit, as its Makefile builds it).
#include "walk.cuh"

constexpr int kBins = 2 * WALK_STEPS + 1;

__global__ void end_points(int walkers, int* end) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  if (id >= walkers) return;
  int position = 0;
  for (int step = 0; step < WALK_STEPS; ++step) {
    position += (walk_hash(static_cast<unsigned int>(id * WALK_STEPS + step)) & 1U) ? 1 : -1;
  }
  end[id] = position;
}

__global__ void bin_counts(const int* end, int walkers, unsigned int* bins) {
  __shared__ unsigned int local[kBins];
  for (int b = threadIdx.x; b < kBins; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < walkers; i += gridDim.x * blockDim.x) {
    atomicAdd(&local[end[i] + WALK_STEPS], 1U);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < kBins; b += blockDim.x) atomicAdd(&bins[b], local[b]);
}
