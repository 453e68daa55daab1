#include <algorithm>

#include "csr.h"

// A banded sparse matrix with a varying number of non-zeros per row (some rows empty).
CsrMatrix make_banded_matrix(int rows, int cols, int max_per_row, unsigned seed) {
  CsrMatrix A;
  A.rows = rows;
  A.cols = cols;
  A.row_ptr.push_back(0);
  for (int r = 0; r < rows; r++) {
    seed = seed * 1664525u + 1013904223u;
    int count = (int)(seed >> 24) % (max_per_row + 1);
    int start = std::max(0, r - count);
    for (int k = 0; k < count && start + 2 * k < cols; k++) {
      A.col_idx.push_back(start + 2 * k);
      A.values.push_back(0.5f + 0.01f * ((r * 31 + k * 7) % 97));
    }
    A.row_ptr.push_back((int)A.col_idx.size());
  }
  return A;
}

void spmv_host(const CsrMatrix& A, const float* x, float* y) {
  for (int r = 0; r < A.rows; r++) {
    float s = 0.0f;
    for (int k = A.row_ptr[r]; k < A.row_ptr[r + 1]; k++) s += A.values[k] * x[A.col_idx[k]];
    y[r] = s;
  }
}
