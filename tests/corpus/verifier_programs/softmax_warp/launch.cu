#include "softmax.cuh"
#include "api.h"

// Logits divided by the temperature before the softmax (in place).
__global__ void scale_logits(float* x, int n, float inv_temperature) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * inv_temperature;
}

void softmax_forward(float* d_in, float* d_out, int rows, int cols, float temperature) {
  int n = rows * cols;
  scale_logits<<<(n + 255) / 256, 256>>>(d_in, n, 1.0f / temperature);
  constexpr int kRows = ROWS_PER_BLOCK;
  dim3 block(32 * kRows);
  dim3 grid((rows + kRows - 1) / kRows);
  softmax_rows<float, kRows><<<grid, block>>>(d_in, d_out, rows, cols);
}
