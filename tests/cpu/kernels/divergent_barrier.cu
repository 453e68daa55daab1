// Deadlocks on a GPU: only half of the block reaches __syncthreads.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void half_barrier(int* out) {
  __shared__ int s[128];
  int t = threadIdx.x;
  s[t] = t;
  if (t < 64) {
    __syncthreads();
    out[t] = s[127 - t];
  }
}

int main() {
  int* d;
  cudaMalloc(&d, 128 * sizeof(int));
  printf("launching\n");
  half_barrier<<<2, 128>>>(d);
  cudaDeviceSynchronize();
  printf("finished\n");
  return 0;
}
