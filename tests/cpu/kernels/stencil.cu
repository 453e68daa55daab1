// 1-D stencil of radius 3 with the halo staged in shared memory.
#include <cstdio>
#include <cuda_runtime.h>

#define RADIUS 3
#define BLOCK 128

__global__ void stencil(const int* in, int* out, int n) {
  __shared__ int tile[BLOCK + 2 * RADIUS];
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  int l = threadIdx.x + RADIUS;
  tile[l] = g < n ? in[g] : 0;
  if (threadIdx.x < RADIUS) {
    int left = g - RADIUS, right = g + BLOCK;
    tile[l - RADIUS] = left >= 0 && left < n ? in[left] : 0;
    tile[l + BLOCK] = right < n ? in[right] : 0;
  }
  __syncthreads();
  int sum = 0;
  for (int o = -RADIUS; o <= RADIUS; ++o) sum += (o + RADIUS + 1) * tile[l + o];
  if (g < n) out[g] = sum;
}

int main() {
  const int n = 1000;
  int h[n], out[n];
  for (int i = 0; i < n; ++i) h[i] = (i * 31) % 23 - 11;
  int *din, *dout;
  cudaMalloc(&din, sizeof h);
  cudaMalloc(&dout, sizeof out);
  cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice);
  stencil<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(din, dout, n);
  cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
  long long total = 0;
  for (int i = 0; i < n; ++i) total += (long long)out[i] * (i % 5 + 1);
  printf("out[0]=%d out[127]=%d out[128]=%d out[999]=%d weighted=%lld\n", out[0], out[127], out[128], out[999], total);
  return 0;
}
