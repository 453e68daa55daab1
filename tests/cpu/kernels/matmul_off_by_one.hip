// A WRONG translation of matmul_tiled.cu: the inner tile loop stops one short (off by one).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <hip/hip_runtime.h>

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
    for (int k = 0; k < TILE - 1; ++k) acc += ta[threadIdx.y][k] * tb[k][threadIdx.x];
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
  hipMalloc(&da, bytes);
  hipMalloc(&db, bytes);
  hipMalloc(&dc, bytes);
  hipMemcpy(da, a, bytes, hipMemcpyHostToDevice);
  hipMemcpy(db, b, bytes, hipMemcpyHostToDevice);
  dim3 block(TILE, TILE), grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
  hipEvent_t start, stop;
  hipEventCreate(&start);
  hipEventCreate(&stop);
  hipEventRecord(start);
  hipLaunchKernelGGL(matmul, grid, block, 0, 0, da, db, dc, n);
  hipEventRecord(stop);
  hipEventSynchronize(stop);
  float ms = 0;
  hipEventElapsedTime(&ms, start, stop);
  hipMemcpy(c, dc, bytes, hipMemcpyDeviceToHost);
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
