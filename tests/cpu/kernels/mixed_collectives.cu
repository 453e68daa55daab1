// Deadlocks on a GPU: half a warp waits in a full-warp shuffle while the other half waits at
// __syncthreads, so neither can complete.
#include <cstdio>

__global__ void stuck(int* out) {
  int t = threadIdx.x, v = t;
  if (t % 32 < 16) v = __shfl_sync(0xffffffff, v, 0);
  __syncthreads();
  out[t] = v;
}

int main() {
  int* d;
  cudaMalloc(&d, 64 * sizeof(int));
  stuck<<<1, 64>>>(d);
  cudaDeviceSynchronize();
  printf("finished\n");
  return 0;
}
