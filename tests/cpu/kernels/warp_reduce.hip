// HIP translation of warp_reduce.cu (non-_sync shuffles, as HIP code usually spells them).
#include <cstdio>
#include <hip/hip_runtime.h>

__device__ int warp_sum(int v) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2) v += __shfl_down(v, offset);
  return v;
}

__global__ void block_sums(const int* in, int* out, int* per_warp) {
  __shared__ int warp_totals[32];
  int t = threadIdx.x, lane = t % warpSize, warp = t / warpSize;
  int v = warp_sum(in[blockIdx.x * blockDim.x + t]);
  if (lane == 0) {
    warp_totals[warp] = v;
    per_warp[blockIdx.x * (blockDim.x / warpSize) + warp] = v;
  }
  __syncthreads();
  if (warp == 0) {
    int w = lane < (int)(blockDim.x / warpSize) ? warp_totals[lane] : 0;
    w = warp_sum(w);
    if (lane == 0) out[blockIdx.x] = w;
  }
}

int main() {
  const int blocks = 8, threads = 256, n = blocks * threads;
  int h[n];
  for (int i = 0; i < n; ++i) h[i] = (i * 37) % 101 - 50;
  int *d, *dout, *dwarp;
  hipMalloc(&d, sizeof h);
  hipMalloc(&dout, blocks * sizeof(int));
  hipMalloc(&dwarp, n / 32 * sizeof(int));
  hipMemcpy(d, h, sizeof h, hipMemcpyHostToDevice);
  hipLaunchKernelGGL(block_sums, dim3(blocks), dim3(threads), 0, 0, d, dout, dwarp);
  int out[blocks];
  hipMemcpy(out, dout, sizeof out, hipMemcpyDeviceToHost);
  printf("warpSize=%d\n", warpSize);
  for (int b = 0; b < blocks; ++b) printf("block %d sum %d\n", b, out[b]);
  return 0;
}
