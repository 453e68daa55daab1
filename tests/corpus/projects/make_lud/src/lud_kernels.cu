// The three kernels of one elimination step (diagonal block, its row and column, the rest).
#include "lud_device.cu"

__global__ void lud_diagonal(float* m, int n, int offset) {
  __shared__ float tile[LUD_BLOCK][LUD_BLOCK];
  const int tx = threadIdx.x;
  for (int i = 0; i < LUD_BLOCK; ++i) tile[i][tx] = m[(offset + i) * n + offset + tx];
  __syncthreads();
  for (int i = 0; i < LUD_BLOCK - 1; ++i) {
    if (tx > i) {
      tile[tx][i] /= tile[i][i];
      for (int j = i + 1; j < LUD_BLOCK; ++j) tile[tx][j] = lud_fma(tile[tx][i], tile[i][j], tile[tx][j]);
    }
    __syncthreads();
  }
  for (int i = 0; i < LUD_BLOCK; ++i) m[(offset + i) * n + offset + tx] = tile[i][tx];
}

__global__ void lud_internal(float* m, int n, int offset) {
  const int row = offset + LUD_BLOCK + blockIdx.y * LUD_BLOCK + threadIdx.y;
  const int col = offset + LUD_BLOCK + blockIdx.x * LUD_BLOCK + threadIdx.x;
  if (row >= n || col >= n) return;
  float sum = m[row * n + col];
  for (int k = 0; k < LUD_BLOCK; ++k) sum = lud_fma(m[row * n + offset + k], m[(offset + k) * n + col], sum);
  m[row * n + col] = sum;
}
