#include "softmax.cuh"
#include "api.h"

void softmax_forward(const float* d_in, float* d_out, int rows, int cols) {
  constexpr int kRows = ROWS_PER_BLOCK;
  dim3 block(32 * kRows);
  dim3 grid((rows + kRows - 1) / kRows);
  softmax_rows<float, kRows><<<grid, block>>>(d_in, d_out, rows, cols);
}
