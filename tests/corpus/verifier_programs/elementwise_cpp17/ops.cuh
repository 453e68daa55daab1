// Element-wise operators selected at compile time (C++17: if constexpr, inline variables, fold
// expressions). The kernels live in ops.cu, instantiated there for each operator.
#pragma once
#include <cstddef>

enum class Op { Scale, Relu, Gelu };

inline constexpr int kThreads = 128;

template <typename... Ts>
constexpr std::size_t total_bytes(std::size_t n, Ts... sizes) {
  return ((n * sizes) + ...);
}

template <Op op>
void run_op(const float* d_in, float* d_out, float a, int n);
