// Shared-memory tree reduction, one partial sum per block, then atomicAdd into the total.
// Usage: reduce_shared [n] [repeat]
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define BLOCK 256

__global__ void reduce(const unsigned* in, unsigned long long* total, int n) {
  __shared__ unsigned long long partial[BLOCK];
  unsigned t = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + t;
  partial[t] = i < (unsigned)n ? in[i] : 0;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (t < stride) partial[t] += partial[t + stride];
    __syncthreads();
  }
  if (t == 0) atomicAdd(total, partial[0]);
}

int main(int argc, char** argv) {
  int n = argc > 1 ? atoi(argv[1]) : (1 << 20);
  int repeat = argc > 2 ? atoi(argv[2]) : 1;
  unsigned* h = (unsigned*)malloc(n * sizeof(unsigned));
  for (int i = 0; i < n; ++i) h[i] = (unsigned)(i % 1000);
  unsigned* d;
  unsigned long long* dtotal;
  cudaMalloc(&d, n * sizeof(unsigned));
  cudaMalloc(&dtotal, sizeof(unsigned long long));
  cudaMemcpy(d, h, n * sizeof(unsigned), cudaMemcpyHostToDevice);
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  unsigned long long total = 0;
  float ms = 0;
  for (int r = 0; r < repeat; ++r) {
    cudaMemset(dtotal, 0, sizeof(unsigned long long));
    cudaEventRecord(start);
    reduce<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(d, dtotal, n);
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    float one = 0;
    cudaEventElapsedTime(&one, start, stop);
    ms += one;
    cudaMemcpy(&total, dtotal, sizeof(total), cudaMemcpyDeviceToHost);
  }
  printf("n=%d total=%llu\n", n, total);
  printf("kernel_ms=%.3f\n", ms / repeat);
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
