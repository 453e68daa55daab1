#include <algorithm>

#include "minmax.cuh"

__global__ void extrema_kernel(const float* x, int n, BlockExtrema* out) {
  __shared__ float s_min[kBlock], s_max[kBlock];
  __shared__ int s_idx[kBlock];
  int tid = threadIdx.x;
  float mn = std::numeric_limits<float>::max();
  float mx = std::numeric_limits<float>::lowest();
  int idx = std::numeric_limits<int>::max();
  for (int i = blockIdx.x * blockDim.x + tid; i < n; i += blockDim.x * gridDim.x) {
    float v = x[i];
    if (v < mn) {
      mn = v;
      idx = i;
    }
    mx = std::max(mx, v);
  }
  s_min[tid] = mn;
  s_max[tid] = mx;
  s_idx[tid] = idx;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) {
      float other = s_min[tid + s];
      int other_idx = s_idx[tid + s];
      if (other < s_min[tid] || (other == s_min[tid] && other_idx < s_idx[tid])) {
        s_min[tid] = other;
        s_idx[tid] = other_idx;
      }
      s_max[tid] = std::max(s_max[tid], s_max[tid + s]);
    }
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = BlockExtrema{s_min[0], s_max[0], s_idx[0]};
}

void block_extrema(const float* d_x, int n, BlockExtrema* d_out, int blocks) {
  extrema_kernel<<<blocks, kBlock>>>(d_x, n, d_out);
}
