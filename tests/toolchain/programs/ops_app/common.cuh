// Shared by the units of a small program: an error check, a constant and a template kernel.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                                  \
  do {                                                                               \
    cudaError_t err_ = (call);                                                       \
    if (err_ != cudaSuccess) {                                                       \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
      std::exit(2);                                                                  \
    }                                                                                \
  } while (0)

#ifndef SCALE
#error "build with -DSCALE=<factor> (compile_commands.json)"
#endif

constexpr float scaled(float x) { return x * SCALE; }

template <typename T>
__global__ void scale(T* data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = scaled(data[i]);  // a constexpr host function: needs --expt-relaxed-constexpr
}

// launched from the header, as libraries do
inline void scale_all(float* data, int n) { scale<float><<<(n + 255) / 256, 256>>>(data, n); }

float run_ops(float* host, int n, float* kernel_ms);
