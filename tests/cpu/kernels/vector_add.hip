// HIP translation of vector_add.cu.
#include <cstdio>
#include <hip/hip_runtime.h>

__global__ void vector_add(const float* a, const float* b, float* c, int n) {
  int i = hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x;
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
  hipMalloc(&da, n * sizeof(float));
  hipMalloc(&db, n * sizeof(float));
  hipMalloc(&dc, n * sizeof(float));
  hipMemcpy(da, a, n * sizeof(float), hipMemcpyHostToDevice);
  hipMemcpy(db, b, n * sizeof(float), hipMemcpyHostToDevice);
  hipLaunchKernelGGL(vector_add, dim3((n + 255) / 256), dim3(256), 0, 0, da, db, dc, n);
  hipDeviceSynchronize();
  hipMemcpy(c, dc, n * sizeof(float), hipMemcpyDeviceToHost);
  printf("c[0]=%.1f c[1]=%.1f c[%d]=%.1f\n", c[0], c[1], n - 1, c[n - 1]);
  double sum = 0;
  for (int i = 0; i < n; ++i) sum += c[i];
  printf("sum=%.1f\n", sum);
  hipFree(da);
  hipFree(db);
  hipFree(dc);
  return 0;
}
