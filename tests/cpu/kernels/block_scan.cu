// Inclusive block scan (Hillis-Steele, double-buffered in shared memory), then a second pass adds
// each block's offset.
#include <cstdio>
#include <cuda_runtime.h>

#define BLOCK 512

__global__ void scan_blocks(const int* in, int* out, int* block_totals, int n) {
  __shared__ int buf[2][BLOCK];
  int t = threadIdx.x, i = blockIdx.x * BLOCK + t;
  int cur = 0;
  buf[cur][t] = i < n ? in[i] : 0;
  __syncthreads();
  for (int offset = 1; offset < BLOCK; offset *= 2) {
    int v = buf[cur][t];
    if (t >= offset) v += buf[cur][t - offset];
    buf[1 - cur][t] = v;
    cur = 1 - cur;
    __syncthreads();
  }
  if (i < n) out[i] = buf[cur][t];
  if (t == BLOCK - 1) block_totals[blockIdx.x] = buf[cur][t];
}

__global__ void add_offsets(int* out, const int* block_totals, int n) {
  __shared__ int offset;
  if (threadIdx.x == 0) {
    int s = 0;
    for (unsigned b = 0; b < blockIdx.x; ++b) s += block_totals[b];
    offset = s;
  }
  __syncthreads();
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i < n) out[i] += offset;
}

int main() {
  const int n = 5000, blocks = (n + BLOCK - 1) / BLOCK;
  static int h[n], out[n];
  for (int i = 0; i < n; ++i) h[i] = (i * 13) % 17 - 8;
  int *din, *dout, *dtot;
  cudaMalloc(&din, sizeof h);
  cudaMalloc(&dout, sizeof out);
  cudaMalloc(&dtot, blocks * sizeof(int));
  cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice);
  scan_blocks<<<blocks, BLOCK>>>(din, dout, dtot, n);
  add_offsets<<<blocks, BLOCK>>>(dout, dtot, n);
  cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i += 499) printf("scan[%d]=%d\n", i, out[i]);
  printf("scan[%d]=%d\n", n - 1, out[n - 1]);
  return 0;
}
