#include <omp.h>
#include <vector>

#include "common.cuh"

__global__ void squares(float* v, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = static_cast<float>(i) * static_cast<float>(i);
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 1 << 20;
  std::vector<float> v(n);
  float* d = nullptr;
  CHECK(cudaMalloc(&d, n * sizeof(float)));
  squares<<<blocks_for(n, 256), 256>>>(d, n);
  CHECK(cudaMemcpy(v.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d));
  double sum = 0;
#pragma omp parallel for reduction(+ : sum)
  for (int i = 0; i < n; ++i) sum += v[i];
  std::printf("%d threads, mean = %.1f\n", omp_get_max_threads(), sum / n);
  return 0;
}
