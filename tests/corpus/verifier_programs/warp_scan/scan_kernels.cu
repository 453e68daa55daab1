#include "scan.h"

__device__ int warp_inclusive_scan(int v, int lane) {
  for (int delta = 1; delta < WARP; delta *= 2) {
    int up = __shfl_up_sync(0xffffffffu, v, delta);
    if (lane >= delta) v += up;
  }
  return v;
}

__global__ void scan_block_kernel(const int* in, int* out, int* totals, int n) {
  __shared__ int warp_sums[SCAN_THREADS / WARP];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % WARP, warp = threadIdx.x / WARP;
  int v = i < n ? in[i] : 0;
  v = warp_inclusive_scan(v, lane);
  if (lane == WARP - 1) warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    int s = lane < SCAN_THREADS / WARP ? warp_sums[lane] : 0;
    s = warp_inclusive_scan(s, lane);
    if (lane < SCAN_THREADS / WARP) warp_sums[lane] = s;
  }
  __syncthreads();
  if (warp > 0) v += warp_sums[warp - 1];
  if (i < n) out[i] = v;
  if (threadIdx.x == blockDim.x - 1) totals[blockIdx.x] = v;
}

__global__ void add_offsets_kernel(int* out, const int* offsets, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (blockIdx.x > 0 && i < n) out[i] += offsets[blockIdx.x - 1];
}

void inclusive_scan_blocks(const int* d_in, int* d_out, int* d_block_totals, int n) {
  scan_block_kernel<<<(n + SCAN_THREADS - 1) / SCAN_THREADS, SCAN_THREADS>>>(d_in, d_out, d_block_totals, n);
}

void add_block_offsets(int* d_out, const int* d_offsets, int n) {
  add_offsets_kernel<<<(n + SCAN_THREADS - 1) / SCAN_THREADS, SCAN_THREADS>>>(d_out, d_offsets, n);
}
