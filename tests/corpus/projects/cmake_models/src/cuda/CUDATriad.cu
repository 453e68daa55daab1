#include <cstdio>
#include <cstdlib>
#include <vector>

#include "CUDATriad.h"

__global__ void init_kernel(double* __restrict__ a, double* __restrict__ b, double* __restrict__ c, double ia,
                            double ib, double ic, std::size_t n) {
  std::size_t i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i < n) {
    a[i] = ia;
    b[i] = ib;
    c[i] = ic;
  }
}

__global__ void triad_kernel(double* __restrict__ a, const double* __restrict__ b, const double* __restrict__ c,
                             std::size_t n) {
  const double scalar = TRIAD_SCALAR;
  std::size_t i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i < n) a[i] = b[i] + scalar * c[i];
}

CUDATriad::CUDATriad(std::size_t n) : n_(n) {
  CUDA_CHECK(cudaMalloc(&d_a_, n * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&d_b_, n * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&d_c_, n * sizeof(double)));
}

CUDATriad::~CUDATriad() {
  cudaFree(d_a_);
  cudaFree(d_b_);
  cudaFree(d_c_);
}

void CUDATriad::init(double a, double b, double c) {
  unsigned blocks = static_cast<unsigned>((n_ + TBSIZE - 1) / TBSIZE);
  init_kernel<<<blocks, TBSIZE>>>(d_a_, d_b_, d_c_, a, b, c, n_);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
}

void CUDATriad::triad() {
  unsigned blocks = static_cast<unsigned>((n_ + TBSIZE - 1) / TBSIZE);
  triad_kernel<<<blocks, TBSIZE>>>(d_a_, d_b_, d_c_, n_);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
}

double CUDATriad::checksum() {
  std::vector<double> a(n_);
  CUDA_CHECK(cudaMemcpy(a.data(), d_a_, n_ * sizeof(double), cudaMemcpyDeviceToHost));
  double sum = 0.0;
  for (double v : a) sum += v;
  return sum;
}

Triad* make_triad(std::size_t n) { return new CUDATriad(n); }
