// y = A x for a sparse CSR matrix, checked against the host; rows may have up to 48 non-zeros.
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "csr.h"

#define CHECK(call)                                                                  \
  do {                                                                               \
    cudaError_t e_ = call;                                                           \
    if (e_ != cudaSuccess) {                                                         \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));    \
      return 1;                                                                      \
    }                                                                                \
  } while (0)

int main(int argc, char** argv) {
  int rows = argc > 1 ? atoi(argv[1]) : 3000;
  int iters = argc > 2 ? atoi(argv[2]) : 3;
  CsrMatrix A = make_banded_matrix(rows, rows, 48, 2024u);
  int nnz = (int)A.values.size();
  std::vector<float> x(rows), y(rows), ref(rows);
  for (int i = 0; i < rows; i++) x[i] = 1.0f + 0.25f * sinf(0.05f * i);
  spmv_host(A, x.data(), ref.data());

  int *d_ptr, *d_idx;
  float *d_val, *d_x, *d_y;
  CHECK(cudaMalloc(&d_ptr, (rows + 1) * sizeof(int)));
  CHECK(cudaMalloc(&d_idx, nnz * sizeof(int)));
  CHECK(cudaMalloc(&d_val, nnz * sizeof(float)));
  CHECK(cudaMalloc(&d_x, rows * sizeof(float)));
  CHECK(cudaMalloc(&d_y, rows * sizeof(float)));
  CHECK(cudaMemcpy(d_ptr, A.row_ptr.data(), (rows + 1) * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_idx, A.col_idx.data(), nnz * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_val, A.values.data(), nnz * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_x, x.data(), rows * sizeof(float), cudaMemcpyHostToDevice));

  cudaEvent_t t0, t1;
  CHECK(cudaEventCreate(&t0));
  CHECK(cudaEventCreate(&t1));
  CHECK(cudaEventRecord(t0));
  for (int it = 0; it < iters; it++) spmv_vector_kernel_launch(rows, d_ptr, d_idx, d_val, d_x, d_y);
  CHECK(cudaEventRecord(t1));
  CHECK(cudaEventSynchronize(t1));
  float ms;
  CHECK(cudaEventElapsedTime(&ms, t0, t1));
  CHECK(cudaMemcpy(y.data(), d_y, rows * sizeof(float), cudaMemcpyDeviceToHost));

  int wrong = 0;
  double norm = 0.0;
  for (int i = 0; i < rows; i++) {
    if (fabsf(y[i] - ref[i]) > 1e-4f * (1.0f + fabsf(ref[i]))) wrong++;
    norm += (double)y[i] * y[i];
  }
  printf("rows %d, nnz %d\n", rows, nnz);
  printf("y[0] = %.5f, y[rows/2] = %.5f, |y| = %.5f\n", y[0], y[rows / 2], sqrt(norm));
  printf("SpMV: %.4f ms, %.3f GFLOPS\n", ms / iters, 2.0 * nnz * iters / (ms * 1e6));
  printf("wrong rows: %d -> %s\n", wrong, wrong ? "FAIL" : "PASS");
  return wrong ? 1 : 0;
}
