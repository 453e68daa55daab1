#pragma once
#include <limits>

// Host constexpr helpers used in device code too: nvcc needs --expt-relaxed-constexpr for that.
constexpr int ceil_div(int a, int b) { return (a + b - 1) / b; }
constexpr float kIdentityMin = std::numeric_limits<float>::max();
constexpr float kIdentityMax = std::numeric_limits<float>::lowest();

constexpr int kBlock = 256;

struct BlockExtrema {
  float min_value, max_value;
  int min_index;
};

void block_extrema(const float* d_x, int n, BlockExtrema* d_out, int blocks);
