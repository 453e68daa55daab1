// STREAM's four kernels, with the time each would take at the target device's peak bandwidth:
// a table whose units sit in its header only, as benchmarks print them.
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

#define STREAM_CHECK(call)                                                   \
  do {                                                                       \
    cudaError_t err_ = (call);                                               \
    if (err_ != cudaSuccess) {                                               \
      std::fprintf(stderr, "stream: %s\n", cudaGetErrorString(err_));        \
      return 1;                                                              \
    }                                                                        \
  } while (0)

constexpr double kPeakGBs = 1555.0;  // A100 40 GB, HBM2

__global__ void copy(const double* a, double* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i];
}
__global__ void scale(double* b, const double* c, double q, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) b[i] = q * c[i];
}
__global__ void add(const double* a, const double* b, double* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
__global__ void triad(double* a, const double* b, const double* c, double q, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = b[i] + q * c[i];
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 1 << 25;
  const int block = 256, grid = (n + block - 1) / block;
  double *a, *b, *c;
  STREAM_CHECK(cudaMalloc(&a, n * sizeof(double)));
  STREAM_CHECK(cudaMalloc(&b, n * sizeof(double)));
  STREAM_CHECK(cudaMalloc(&c, n * sizeof(double)));
  std::vector<double> host(n, 1.0);
  STREAM_CHECK(cudaMemcpy(a, host.data(), n * sizeof(double), cudaMemcpyHostToDevice));
  STREAM_CHECK(cudaMemcpy(b, host.data(), n * sizeof(double), cudaMemcpyHostToDevice));
  copy<<<grid, block>>>(a, c, n);
  scale<<<grid, block>>>(b, c, 3.0, n);
  add<<<grid, block>>>(a, b, c, n);
  triad<<<grid, block>>>(a, b, c, 3.0, n);
  STREAM_CHECK(cudaGetLastError());
  STREAM_CHECK(cudaMemcpy(host.data(), a, n * sizeof(double), cudaMemcpyDeviceToHost));
  const char* names[] = {"copy", "scale", "add", "triad"};
  const int arrays[] = {2, 2, 3, 3};
  std::printf("%-8s %12s %10s %10s\n", "kernel", "bytes", "time(ms)", "GB/s");
  for (int k = 0; k < 4; ++k) {
    double bytes = static_cast<double>(arrays[k]) * n * sizeof(double);
    std::printf("%-8s %12.0f %10.4f %10.1f\n", names[k], bytes, bytes / (kPeakGBs * 1e6), kPeakGBs);
  }
  double sum = 0.0;
  for (double x : host) sum += x;
  std::printf("checksum %.1f\n", sum);
  STREAM_CHECK(cudaFree(a));
  STREAM_CHECK(cudaFree(b));
  STREAM_CHECK(cudaFree(c));
  return 0;
}
