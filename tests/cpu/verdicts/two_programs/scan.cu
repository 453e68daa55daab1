#include "scan.cuh"

__global__ void block_scan_kernel(const float* in, float* out, float* totals, int n) {
  __shared__ float tile[kScanBlock];
  int i = blockIdx.x * kScanBlock + threadIdx.x;
  tile[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int offset = 1; offset < kScanBlock; offset *= 2) {
    float add = threadIdx.x >= offset ? tile[threadIdx.x - offset] : 0.0f;
    __syncthreads();
    tile[threadIdx.x] += add;
    __syncthreads();
  }
  if (i < n) out[i] = tile[threadIdx.x];
  if (threadIdx.x == kScanBlock - 1) totals[blockIdx.x] = tile[threadIdx.x];
}

void block_scan(const float* in, float* out, float* totals, int n) {
  int blocks = (n + kScanBlock - 1) / kScanBlock;
  block_scan_kernel<<<blocks, kScanBlock>>>(in, out, totals, n);
  SCAN_CHECK(cudaGetLastError());
  SCAN_CHECK(cudaDeviceSynchronize());
}
