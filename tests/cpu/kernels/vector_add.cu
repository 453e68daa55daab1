// Vector add over a grid that does not divide the length evenly.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void vector_add(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

int main() {
  const int n = 100003;
  float *a = new float[n], *b = new float[n], *c = new float[n];
  for (int i = 0; i < n; ++i) {
    a[i] = 0.5f * i;
    b[i] = 2.0f * (i % 1000);
  }
  float *da, *db, *dc;
  cudaMalloc(&da, n * sizeof(float));
  cudaMalloc(&db, n * sizeof(float));
  cudaMalloc(&dc, n * sizeof(float));
  cudaMemcpy(da, a, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(db, b, n * sizeof(float), cudaMemcpyHostToDevice);
  vector_add<<<(n + 255) / 256, 256>>>(da, db, dc, n);
  cudaDeviceSynchronize();
  cudaMemcpy(c, dc, n * sizeof(float), cudaMemcpyDeviceToHost);
  printf("c[0]=%.1f c[1]=%.1f c[%d]=%.1f\n", c[0], c[1], n - 1, c[n - 1]);
  double sum = 0;
  for (int i = 0; i < n; ++i) sum += c[i];
  printf("sum=%.1f\n", sum);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  return 0;
}
