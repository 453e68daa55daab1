#include <vector>

#include "common.cuh"

template <int Threads>
__global__ void block_sums(const float* in, float* out, int n) {
  __shared__ float partial[Threads];
  const int i = blockIdx.x * Threads + threadIdx.x;
  partial[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int stride = Threads / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = partial[0];
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 1 << 22;
  constexpr int threads = 256;
  const int blocks = blocks_for(n, threads);
  std::vector<float> in(n, 0.5f), sums(blocks);
  float *d_in = nullptr, *d_sums = nullptr;
  CHECK(cudaMalloc(&d_in, n * sizeof(float)));
  CHECK(cudaMalloc(&d_sums, blocks * sizeof(float)));
  CHECK(cudaMemcpy(d_in, in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  block_sums<threads><<<blocks, threads>>>(d_in, d_sums, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(sums.data(), d_sums, blocks * sizeof(float), cudaMemcpyDeviceToHost));
  double total = 0;
  for (float s : sums) total += s;
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_sums));
  std::printf("sum = %.1f\n", total);
  return 0;
}
