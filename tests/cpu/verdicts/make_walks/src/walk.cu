#include "walk.cuh"

__global__ void walk_kernel(int walkers, unsigned int seed, int* end) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  if (id >= walkers) return;
  int position = 0;
  for (int step = 0; step < WALK_STEPS; ++step) {
    unsigned int r = walk_hash(seed * 2654435761U + static_cast<unsigned int>(id * WALK_STEPS + step));
    position += (r & 1U) ? 1 : -1;
  }
  end[id] = position;
}

void run_walks(int walkers, unsigned int seed, int* d_end) {
  const int block = 128;
  walk_kernel<<<(walkers + block - 1) / block, block>>>(walkers, seed, d_end);
  WALK_CHECK(cudaGetLastError());
  WALK_CHECK(cudaDeviceSynchronize());
}
