#include "solver.cuh"

// A tridiagonal (-1, 2, -1) matrix in CSR, y = A x, then ||y||_2 with cuBLAS.
__global__ void laplacian_csr(int* offsets, int* columns, float* values, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= n) return;
  int at = row == 0 ? 0 : 3 * row - 1;
  offsets[row] = at;
  if (row > 0) { columns[at] = row - 1; values[at++] = -1.0f; }
  columns[at] = row; values[at++] = 2.0f;
  if (row + 1 < n) { columns[at] = row + 1; values[at] = -1.0f; }
  if (row == n - 1) offsets[n] = 3 * n - 2;
}

float spmv_norm(cublasHandle_t blas, cusparseHandle_t sparse, const float* x, int n) {
  const int nnz = 3 * n - 2;
  int *offsets, *columns;
  float *values, *y;
  CUDA_CHECK(cudaMalloc(&offsets, (n + 1) * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&columns, nnz * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&values, nnz * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&y, n * sizeof(float)));
  laplacian_csr<<<(n + 127) / 128, 128>>>(offsets, columns, values, n);
  cusparseSpMatDescr_t a;
  cusparseDnVecDescr_t vx, vy;
  CUSPARSE_CHECK(cusparseCreateCsr(&a, n, n, nnz, offsets, columns, values, CUSPARSE_INDEX_32I,
                                   CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
  CUSPARSE_CHECK(cusparseCreateDnVec(&vx, n, const_cast<float*>(x), CUDA_R_32F));
  CUSPARSE_CHECK(cusparseCreateDnVec(&vy, n, y, CUDA_R_32F));
  const float one = 1.0f, zero = 0.0f;
  size_t bytes = 0;
  CUSPARSE_CHECK(cusparseSpMV_bufferSize(sparse, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, a, vx, &zero, vy,
                                         CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, &bytes));
  void* buffer = nullptr;
  CUDA_CHECK(cudaMalloc(&buffer, bytes ? bytes : 1));
  CUSPARSE_CHECK(cusparseSpMV(sparse, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, a, vx, &zero, vy, CUDA_R_32F,
                              CUSPARSE_SPMV_ALG_DEFAULT, buffer));
  float norm = 0.0f;
  CUBLAS_CHECK(cublasSnrm2(blas, n, y, 1, &norm));
  CUSPARSE_CHECK(cusparseDestroySpMat(a));
  CUSPARSE_CHECK(cusparseDestroyDnVec(vx));
  CUSPARSE_CHECK(cusparseDestroyDnVec(vy));
  CUDA_CHECK(cudaFree(buffer));
  CUDA_CHECK(cudaFree(y));
  CUDA_CHECK(cudaFree(values));
  CUDA_CHECK(cudaFree(columns));
  CUDA_CHECK(cudaFree(offsets));
  return norm;
}
