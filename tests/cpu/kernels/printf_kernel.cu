// printf from device code.
#include <cstdio>

__global__ void hello(int tag) {
  if (threadIdx.x % 16 == 0) printf("block %d thread %d tag %d\n", blockIdx.x, threadIdx.x, tag);
}

int main() {
  hello<<<3, 64>>>(7);
  cudaDeviceSynchronize();
  printf("done\n");
  return 0;
}
