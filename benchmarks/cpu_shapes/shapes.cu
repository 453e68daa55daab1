// Four kernel shapes for bench_cpu_runtime.py, each timed over `repeat` launches (the best is
// printed) with a checksum the plain-loop twin (shapes_plain.cpp) must match.
// Usage: shapes {elementwise|stencil|reduction|histogram} n repeat
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define BLOCK 256
#define RADIUS 3
#define BINS 256

__global__ void saxpy(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

__global__ void stencil(int n, const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < RADIUS || i >= n - RADIUS) return;
  float sum = 0;
  for (int o = -RADIUS; o <= RADIUS; ++o) sum += in[i + o] * (o + RADIUS + 1);
  out[i] = sum;
}

__global__ void reduce(int n, const unsigned* in, unsigned long long* total) {
  __shared__ unsigned long long partial[BLOCK];
  unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  partial[t] = i < (unsigned)n ? in[i] : 0;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (t < stride) partial[t] += partial[t + stride];
    __syncthreads();
  }
  if (t == 0) atomicAdd(total, partial[0]);
}

__global__ void histogram(int n, const unsigned* in, unsigned* bins) {
  __shared__ unsigned local[BINS];
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) atomicAdd(&local[in[i] % BINS], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) atomicAdd(&bins[b], local[b]);
}

// CPU time of the whole process (every worker): on one worker, the launch's cost whatever else
// the machine runs.
static double cpu_ms() {
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int main(int argc, char** argv) {
  if (argc < 4) return 2;
  const char* shape = argv[1];
  int n = atoi(argv[2]), repeat = atoi(argv[3]);
  float *x, *y;
  unsigned* u;
  unsigned long long* total;
  unsigned* bins;
  cudaMallocManaged(&x, n * sizeof(float));
  cudaMallocManaged(&y, n * sizeof(float));
  cudaMallocManaged(&u, n * sizeof(unsigned));
  cudaMallocManaged(&total, sizeof(unsigned long long));
  cudaMallocManaged(&bins, BINS * sizeof(unsigned));
  for (int i = 0; i < n; ++i) {
    x[i] = (float)(i % 17);
    u[i] = (unsigned)i * 2654435761u >> 7;
  }
  const int blocks = (n + BLOCK - 1) / BLOCK;
  double best = 1e30, best_cpu = 1e30, check = 0;
  for (int r = 0; r < repeat; ++r) {
    for (int i = 0; i < n; ++i) y[i] = 1.0f;
    *total = 0;
    memset(bins, 0, BINS * sizeof(unsigned));
    auto start = std::chrono::steady_clock::now();
    double cpu_start = cpu_ms();
    if (!strcmp(shape, "elementwise")) saxpy<<<blocks, BLOCK>>>(n, 2.0f, x, y);
    else if (!strcmp(shape, "stencil")) stencil<<<blocks, BLOCK>>>(n, x, y);
    else if (!strcmp(shape, "reduction")) reduce<<<blocks, BLOCK>>>(n, u, total);
    else histogram<<<blocks / 16 + 1, BLOCK>>>(n, u, bins);
    cudaDeviceSynchronize();
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    double cpu = cpu_ms() - cpu_start;
    if (ms < best) best = ms;
    if (cpu < best_cpu) best_cpu = cpu;
  }
  if (!strcmp(shape, "reduction")) check = (double)*total;
  else if (!strcmp(shape, "histogram")) for (int b = 0; b < BINS; ++b) check += (double)bins[b] * (b + 1);
  else for (int i = 0; i < n; ++i) check += y[i];
  printf("kernel_ms=%.3f kernel_cpu_ms=%.3f check=%.17g\n", best, best_cpu, check);
  return 0;
}
