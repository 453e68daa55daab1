// Two passes over a signal: a square (elementwise) and a backward difference that stages its tile,
// and the element before it, in shared memory.
#include "common.cuh"

__global__ void square(int* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = v[i] * v[i] % 1009;
}

__global__ void backward_diff(const int* in, int* out, int n) {
  __shared__ int tile[TILE + 1];
  int t = threadIdx.x;
  int g = blockIdx.x * blockDim.x + t;
  tile[t + 1] = g < n ? in[g] : 0;
  if (t == 0) tile[0] = g > 0 ? in[g - 1] : 0;
  __syncthreads();
  if (g < n) out[g] = tile[t + 1] - tile[t];
}

long long run_filters(const int* host, int* result, int n) {
  int *signal, *diff;
  CHECK(cudaMalloc(&signal, n * sizeof(int)));
  CHECK(cudaMalloc(&diff, n * sizeof(int)));
  CHECK(cudaMemcpy(signal, host, n * sizeof(int), cudaMemcpyHostToDevice));
  const int blocks = (n + TILE - 1) / TILE;
  square<<<blocks, TILE>>>(signal, n);
  backward_diff<<<blocks, TILE>>>(signal, diff, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(result, diff, n * sizeof(int), cudaMemcpyDeviceToHost));
  long long weighted = 0;
  for (int i = 0; i < n; ++i) weighted += (long long)result[i] * (i % 7 + 1);
  CHECK(cudaFree(signal));
  CHECK(cudaFree(diff));
  return weighted;
}
