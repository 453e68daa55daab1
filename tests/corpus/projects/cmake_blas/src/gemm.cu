#include <cublas_v2.h>

#include "vecops.cuh"
#include "vecops.h"

namespace vecops {
int gemm(const float* a, const float* b, float* c, int n) {
  const std::size_t bytes = static_cast<std::size_t>(n) * n * sizeof(float);
  float *da = nullptr, *db = nullptr, *dc = nullptr;
  VECOPS_CHECK(cudaMalloc(&da, bytes));
  VECOPS_CHECK(cudaMalloc(&db, bytes));
  VECOPS_CHECK(cudaMalloc(&dc, bytes));
  VECOPS_CHECK(cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice));
  VECOPS_CHECK(cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice));
  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) return 2;
  const float one = 1.0f, zero = 0.0f;
  cublasStatus_t status =
      cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, da, n, db, n, &zero, dc, n);
  cublasDestroy(handle);
  if (status != CUBLAS_STATUS_SUCCESS) return 3;
  VECOPS_CHECK(cudaMemcpy(c, dc, bytes, cudaMemcpyDeviceToHost));
  VECOPS_CHECK(cudaFree(da));
  VECOPS_CHECK(cudaFree(db));
  VECOPS_CHECK(cudaFree(dc));
  return 0;
}
}  // namespace vecops
