// Tiled matrix multiply, 16x16 tiles in shared memory with two __syncthreads per tile step.
// Usage: matmul_tiled [n] [check]; prints a checksum and, with check=1, the max error against a host
// reference.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define TILE 16

__global__ void matmul(const float* a, const float* b, float* c, int n) {
  __shared__ float ta[TILE][TILE];
  __shared__ float tb[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
  for (int k0 = 0; k0 < n; k0 += TILE) {
    ta[threadIdx.y][threadIdx.x] = row < n && k0 + threadIdx.x < n ? a[row * n + k0 + threadIdx.x] : 0.0f;
    tb[threadIdx.y][threadIdx.x] = col < n && k0 + threadIdx.y < n ? b[(k0 + threadIdx.y) * n + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; ++k) acc += ta[threadIdx.y][k] * tb[k][threadIdx.x];
    __syncthreads();
  }
  if (row < n && col < n) c[row * n + col] = acc;
}

int main(int argc, char** argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100;
  int check = argc > 2 ? atoi(argv[2]) : 1;
  size_t bytes = (size_t)n * n * sizeof(float);
  float *a = (float*)malloc(bytes), *b = (float*)malloc(bytes), *c = (float*)malloc(bytes);
  for (int i = 0; i < n * n; ++i) {
    a[i] = (float)((i * 7) % 11) - 5.0f;
    b[i] = (float)((i * 5) % 13) * 0.25f;
  }
  float *da, *db, *dc;
  cudaMalloc(&da, bytes);
  cudaMalloc(&db, bytes);
  cudaMalloc(&dc, bytes);
  cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice);
  dim3 block(TILE, TILE), grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  matmul<<<grid, block>>>(da, db, dc, n);
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  cudaMemcpy(c, dc, bytes, cudaMemcpyDeviceToHost);
  double checksum = 0;
  for (int i = 0; i < n * n; ++i) checksum += c[i];
  printf("n=%d checksum=%.2f c[0]=%.2f c[last]=%.2f\n", n, checksum, c[0], c[n * n - 1]);
  if (check) {
    double max_err = 0;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        double ref = 0;
        for (int k = 0; k < n; ++k) ref += (double)a[i * n + k] * b[k * n + j];
        max_err = fmax(max_err, fabs(ref - c[i * n + j]));
      }
    printf("max_err=%g\n", max_err);
  }
  printf("kernel_ms=%.3f\n", ms);
  return 0;
}
