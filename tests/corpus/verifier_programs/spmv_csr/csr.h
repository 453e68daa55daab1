#ifndef CSR_H
#define CSR_H

#include <vector>

struct CsrMatrix {
  int rows = 0, cols = 0;
  std::vector<int> row_ptr, col_idx;
  std::vector<float> values;
};

// csr_build.cpp
CsrMatrix make_banded_matrix(int rows, int cols, int max_per_row, unsigned seed);
void spmv_host(const CsrMatrix& A, const float* x, float* y);

// spmv.cu
void spmv_vector_kernel_launch(int rows, const int* row_ptr, const int* col_idx, const float* values,
                               const float* x, float* y);

#endif
