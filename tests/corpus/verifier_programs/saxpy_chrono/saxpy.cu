// SAXPY with host-side std::chrono timing and a host reference check.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define CUDA_CHECK(x)                                                        \
  if ((x) != cudaSuccess) {                                                  \
    printf("error: %s (%s:%d)\n", cudaGetErrorString(x), __FILE__, __LINE__); \
    return 1;                                                                \
  }

__global__ void saxpy(int n, float a, const float* x, float* y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i];
}

static void usage(const char* prog) { printf("usage: %s [-n elements] [-a alpha] [-r repeat]\n", prog); }

int main(int argc, char* argv[]) {
  int n = 1 << 15, repeat = 3;
  float alpha = 2.5f;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-n") && i + 1 < argc) n = atoi(argv[++i]);
    else if (!strcmp(argv[i], "-a") && i + 1 < argc) alpha = (float)atof(argv[++i]);
    else if (!strcmp(argv[i], "-r") && i + 1 < argc) repeat = atoi(argv[++i]);
    else { usage(argv[0]); return 2; }
  }
  size_t bytes = n * sizeof(float);
  float* x = (float*)malloc(bytes);
  float* y = (float*)malloc(bytes);
  float* ref = (float*)malloc(bytes);
  for (int i = 0; i < n; i++) {
    x[i] = 0.001f * (i % 1000);
    y[i] = 1.0f - 0.0005f * (i % 333);
    ref[i] = y[i];
  }
  for (int r = 0; r < repeat; r++)
    for (int i = 0; i < n; i++) ref[i] = alpha * x[i] + ref[i];

  float *dx, *dy;
  CUDA_CHECK(cudaMalloc((void**)&dx, bytes));
  CUDA_CHECK(cudaMalloc((void**)&dy, bytes));
  CUDA_CHECK(cudaMemcpy(dx, x, bytes, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dy, y, bytes, cudaMemcpyHostToDevice));

  auto start = std::chrono::steady_clock::now();
  for (int r = 0; r < repeat; r++) saxpy<<<64, 128>>>(n, alpha, dx, dy);
  CUDA_CHECK(cudaDeviceSynchronize());
  auto end = std::chrono::steady_clock::now();
  double seconds = std::chrono::duration<double>(end - start).count();

  CUDA_CHECK(cudaMemcpy(y, dy, bytes, cudaMemcpyDeviceToHost));
  int errors = 0;
  double checksum = 0.0;
  for (int i = 0; i < n; i++) {
    if (fabsf(y[i] - ref[i]) > 1e-4f) errors++;
    checksum += y[i];
  }
  printf("y[0] = %.6f  y[n/2] = %.6f  y[n-1] = %.6f\n", y[0], y[n / 2], y[n - 1]);
  printf("checksum %.3f\n", checksum);
  printf("execution time %.4f (s)\n", seconds);
  printf("%d errors: %s\n", errors, errors ? "FAIL" : "PASS");
  cudaFree(dx);
  cudaFree(dy);
  free(x);
  free(y);
  free(ref);
  return errors ? 1 : 0;
}
