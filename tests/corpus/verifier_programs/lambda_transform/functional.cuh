// A tiny "functional" layer: kernels that take device lambdas (needs nvcc --extended-lambda).
#pragma once

template <typename F>
__global__ void for_each_index(int n, F f) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) f(i);
}

template <typename T, typename Op>
__global__ void zip_with(const T* a, const T* b, T* out, int n, Op op) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = op(a[i], b[i]);
}

template <typename F>
void launch_for_each(int n, F f) {
  int threads = 128;
  int blocks = (n + threads - 1) / threads;
  if (blocks > 96) blocks = 96;
  for_each_index<<<blocks, threads>>>(n, f);
}
