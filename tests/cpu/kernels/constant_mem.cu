// __constant__ coefficients and a __device__ counter, moved with cudaMemcpyTo/FromSymbol.
#include <cstdio>
#include <cuda_runtime.h>

__constant__ float coeffs[4];
__constant__ int scale;
__device__ unsigned int evaluated;

__global__ void polynomial(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  y[i] = scale * (((coeffs[3] * v + coeffs[2]) * v + coeffs[1]) * v + coeffs[0]);
  atomicAdd(&evaluated, 1u);
}

int main() {
  const int n = 300;
  float hc[4] = {1.0f, -2.0f, 0.5f, 0.25f};
  int hs = 3;
  unsigned zero = 0;
  cudaMemcpyToSymbol(coeffs, hc, sizeof hc);
  cudaMemcpyToSymbol(scale, &hs, sizeof hs);
  cudaMemcpyToSymbol(evaluated, &zero, sizeof zero);
  float x[n], y[n];
  for (int i = 0; i < n; ++i) x[i] = (i - 150) * 0.02f;
  float *dx, *dy;
  cudaMalloc(&dx, sizeof x);
  cudaMalloc(&dy, sizeof y);
  cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice);
  polynomial<<<(n + 63) / 64, 64>>>(dx, dy, n);
  cudaMemcpy(y, dy, sizeof y, cudaMemcpyDeviceToHost);
  unsigned count = 0;
  cudaMemcpyFromSymbol(&count, evaluated, sizeof count);
  printf("evaluated=%u y[0]=%.4f y[150]=%.4f y[299]=%.4f\n", count, y[0], y[150], y[299]);
  return 0;
}
