#include "common.cuh"

__global__ void block_sums(const float* in, float* out, int n) {
  __shared__ float partial[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  partial[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = partial[0];
}

float run_ops(float* host, int n, float* kernel_ms) {
  const int threads = 256, blocks = (n + threads - 1) / threads;
  float *data, *sums;
  CHECK(cudaMalloc(&data, n * sizeof(float)));
  CHECK(cudaMalloc(&sums, blocks * sizeof(float)));
  CHECK(cudaMemcpy(data, host, n * sizeof(float), cudaMemcpyHostToDevice));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  CHECK(cudaEventRecord(start));
  scale_all(data, n);
  block_sums<<<blocks, threads>>>(data, sums, n);
  CHECK(cudaEventRecord(stop));
  CHECK(cudaEventSynchronize(stop));
  CHECK(cudaEventElapsedTime(kernel_ms, start, stop));
  float* partial = new float[blocks];
  CHECK(cudaMemcpy(partial, sums, blocks * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(host, data, n * sizeof(float), cudaMemcpyDeviceToHost));
  float total = 0.0f;
  for (int b = 0; b < blocks; ++b) total += partial[b];
  delete[] partial;
  CHECK(cudaFree(data));
  CHECK(cudaFree(sums));
  return total;
}
