#include "poisson.cuh"

__global__ void pattern(float* v, int n, int period, int shift) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = float(i % period - shift);
}

// Each element weighted by its index modulo 13, so a value in the wrong place changes the total.
static double checksum(const float* device, int n) {
  float* host = static_cast<float*>(std::malloc(n * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(host, device, n * sizeof(float), cudaMemcpyDeviceToHost));
  double total = 0.0;
  for (int i = 0; i < n; ++i) total += double(host[i]) * (i % 13 + 1);
  std::free(host);
  return total;
}

int main(int argc, char** argv) {
  const int nx = argc > 1 ? std::atoi(argv[1]) : 1024, ny = argc > 2 ? std::atoi(argv[2]) : 1024;
  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreate(&stream));
  cusparseHandle_t handle;
  CUSPARSE_CHECK(cusparseCreate(&handle));
  CUSPARSE_CHECK(cusparseSetStream(handle, stream));
  Csr a = build_laplacian(nx, ny, stream);
  const int n = a.rows;
  float *x, *y, *b, *c;
  int* coo_rows;
  CUDA_CHECK(cudaMalloc(&x, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&y, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&b, n * RHS_COLUMNS * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&c, n * RHS_COLUMNS * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&coo_rows, a.nnz * sizeof(int)));
  pattern<<<(n + 255) / 256, 256, 0, stream>>>(x, n, 7, 3);
  pattern<<<(n * RHS_COLUMNS + 255) / 256, 256, 0, stream>>>(b, n * RHS_COLUMNS, 5, 2);

  cusparseSpMatDescr_t mat;
  cusparseDnVecDescr_t vx, vy;
  cusparseDnMatDescr_t mb, mc;
  CUSPARSE_CHECK(cusparseCreateCsr(&mat, n, n, a.nnz, a.offsets, a.columns, a.values, CUSPARSE_INDEX_32I,
                                   CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
  CUSPARSE_CHECK(cusparseCreateDnVec(&vx, n, x, CUDA_R_32F));
  CUSPARSE_CHECK(cusparseCreateDnVec(&vy, n, y, CUDA_R_32F));
  CUSPARSE_CHECK(cusparseCreateDnMat(&mb, n, RHS_COLUMNS, RHS_COLUMNS, b, CUDA_R_32F, CUSPARSE_ORDER_ROW));
  CUSPARSE_CHECK(cusparseCreateDnMat(&mc, n, RHS_COLUMNS, RHS_COLUMNS, c, CUDA_R_32F, CUSPARSE_ORDER_ROW));

  const float one = 1.0f, two = 2.0f, zero = 0.0f;
  size_t spmv_bytes = 0, spmm_bytes = 0;
  CUSPARSE_CHECK(cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, mat, vx, &zero, vy,
                                         CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, &spmv_bytes));
  CUSPARSE_CHECK(cusparseSpMM_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                         &two, mat, mb, &zero, mc, CUDA_R_32F, CUSPARSE_SPMM_ALG_DEFAULT, &spmm_bytes));
  void* work;
  CUDA_CHECK(cudaMalloc(&work, (spmv_bytes > spmm_bytes ? spmv_bytes : spmm_bytes) + 1));
  CUSPARSE_CHECK(cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, mat, vx, &zero, vy, CUDA_R_32F,
                              CUSPARSE_SPMV_ALG_DEFAULT, work));
  CUSPARSE_CHECK(cusparseSpMM(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &two, mat,
                              mb, &zero, mc, CUDA_R_32F, CUSPARSE_SPMM_ALG_DEFAULT, work));
  CUSPARSE_CHECK(cusparseXcsr2coo(handle, a.offsets, a.nnz, n, coo_rows, CUSPARSE_INDEX_BASE_ZERO));
  CUDA_CHECK(cudaStreamSynchronize(stream));

  int* rows = static_cast<int*>(std::malloc(a.nnz * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(rows, coo_rows, a.nnz * sizeof(int), cudaMemcpyDeviceToHost));
  long long row_sum = 0;
  for (int k = 0; k < a.nnz; ++k) row_sum += (long long)rows[k] * (k % 13 + 1);
  std::printf("grid %d x %d: %d rows, %d nonzeros\n", nx, ny, n, a.nnz);
  std::printf("checksum(A x) = %.1f\n", checksum(y, n));
  std::printf("checksum(2 A B) = %.1f\n", checksum(c, n * RHS_COLUMNS));
  std::printf("checksum(coo rows) = %lld\n", row_sum);

  std::free(rows);
  CUSPARSE_CHECK(cusparseDestroySpMat(mat));
  CUSPARSE_CHECK(cusparseDestroyDnVec(vx));
  CUSPARSE_CHECK(cusparseDestroyDnVec(vy));
  CUSPARSE_CHECK(cusparseDestroyDnMat(mb));
  CUSPARSE_CHECK(cusparseDestroyDnMat(mc));
  CUSPARSE_CHECK(cusparseDestroy(handle));
  free_csr(a);
  CUDA_CHECK(cudaFree(work));
  CUDA_CHECK(cudaFree(coo_rows));
  CUDA_CHECK(cudaFree(c));
  CUDA_CHECK(cudaFree(b));
  CUDA_CHECK(cudaFree(y));
  CUDA_CHECK(cudaFree(x));
  CUDA_CHECK(cudaStreamDestroy(stream));
  return 0;
}
