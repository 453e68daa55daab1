// Host interface of the vecops library: plain C++, no CUDA types.
#pragma once
#include <cstddef>

namespace vecops {
// y = a * x + y on the device; returns 0 on success.
int scale_add(float a, const float* x, float* y, std::size_t n);
// C = A * B for n x n column-major matrices, through cuBLAS; returns 0 on success.
int gemm(const float* a, const float* b, float* c, int n);
}  // namespace vecops
