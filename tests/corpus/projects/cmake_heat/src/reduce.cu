#include "heat.cuh"

constexpr int kBlock = 256;

__device__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

__device__ float warp_max(float v) {
  for (int offset = 16; offset > 0; offset >>= 1) v = fmaxf(v, __shfl_down_sync(0xffffffffu, v, offset));
  return v;
}

__global__ void stats_kernel(const float* cells, int n, float* sum, float* max) {
  __shared__ float sums[kBlock / 32];
  __shared__ float maxes[kBlock / 32];
  float s = 0.0f;
  float m = -1e30f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    s += cells[i];
    m = fmaxf(m, cells[i]);
  }
  s = warp_sum(s);
  m = warp_max(m);
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  if (lane == 0) {
    sums[warp] = s;
    maxes[warp] = m;
  }
  __syncthreads();
  if (warp == 0) {
    s = lane < kBlock / 32 ? sums[lane] : 0.0f;
    m = lane < kBlock / 32 ? maxes[lane] : -1e30f;
    s = warp_sum(s);
    m = warp_max(m);
    if (lane == 0) {
      atomicAdd(sum, s);
      // non-negative floats order like their bits
      atomicMax(reinterpret_cast<int*>(max), __float_as_int(m));
    }
  }
}

void plate_stats(const Plate& plate, float* sum, float* max) {
  float* device = nullptr;
  CUDA_CHECK(cudaMalloc(&device, 2 * sizeof(float)));
  CUDA_CHECK(cudaMemset(device, 0, 2 * sizeof(float)));
  const int n = plate.width * plate.height;
  stats_kernel<<<(n + kBlock - 1) / kBlock, kBlock>>>(plate.cells, n, device, device + 1);
  CUDA_CHECK(cudaGetLastError());
  float host[2];
  CUDA_CHECK(cudaMemcpy(host, device, sizeof(host), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(device));
  *sum = host[0];
  *max = host[1];
}
