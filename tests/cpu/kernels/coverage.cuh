// Launches in a header: template kernels launched with explicit template arguments, from a
// template function, from a lambda inside it, and from a macro. (tests/cpu/test_runtime_coverage.py)
#pragma once

template <typename T, int N>
__global__ void scale_by(T* d, T factor) {
  d[blockIdx.x * blockDim.x + threadIdx.x] *= factor * N;
}

template <typename T>
__global__ void fill_with(T* d, T value) {
  d[blockIdx.x * blockDim.x + threadIdx.x] = value;
}

#define FILL_LAUNCH(T, d, v, n) fill_with<T><<<1, (n)>>>((d), (v))

template <typename T>
void fill_then_scale(T* d, T value, int n) {
  fill_with<T><<<1, n>>>(d, value);
  scale_by<T, 2><<<1, n>>>(d, value);
  auto again = [&](T by) { scale_by<T, 1><<<dim3(1), dim3(n >> 1)>>>(d, by); };
  again(value);
}
