// Minimum (with its first index) and maximum of an array: per-block results combined on the host.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "minmax.cuh"

int main(int argc, char** argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100000;
  int blocks = std::min(ceil_div(n, kBlock * 4), 64);
  std::vector<float> x(n);
  for (int i = 0; i < n; i++) x[i] = 100.0f * sinf(0.001f * i * (1 + i % 7)) + 0.01f * (i % 13);
  x[n / 3] = -250.0f;
  x[2 * n / 3] = -250.0f;  // a tie: the first index must win

  float* d_x;
  BlockExtrema* d_out;
  cudaMalloc(&d_x, n * sizeof(float));
  cudaMalloc(&d_out, blocks * sizeof(BlockExtrema));
  cudaMemcpy(d_x, x.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  auto t0 = std::chrono::steady_clock::now();
  block_extrema(d_x, n, d_out, blocks);
  cudaDeviceSynchronize();
  auto t1 = std::chrono::steady_clock::now();
  std::vector<BlockExtrema> parts(blocks);
  cudaMemcpy(parts.data(), d_out, blocks * sizeof(BlockExtrema), cudaMemcpyDeviceToHost);

  BlockExtrema all{kIdentityMin, kIdentityMax, n};
  for (const BlockExtrema& p : parts) {
    if (p.min_value < all.min_value || (p.min_value == all.min_value && p.min_index < all.min_index)) {
      all.min_value = p.min_value;
      all.min_index = p.min_index;
    }
    all.max_value = std::max(all.max_value, p.max_value);
  }
  float ref_min = x[0], ref_max = x[0];
  int ref_idx = 0;
  for (int i = 1; i < n; i++) {
    if (x[i] < ref_min) {
      ref_min = x[i];
      ref_idx = i;
    }
    ref_max = std::max(ref_max, x[i]);
  }
  printf("n=%d blocks=%d\n", n, blocks);
  printf("min %.4f at %d, max %.4f\n", all.min_value, all.min_index, all.max_value);
  printf("block 0: min %.4f at %d, max %.4f\n", parts[0].min_value, parts[0].min_index, parts[0].max_value);
  printf("Total time = %.6f sec\n", std::chrono::duration<double>(t1 - t0).count());
  bool ok = all.min_value == ref_min && all.min_index == ref_idx && all.max_value == ref_max;
  printf("%s\n", ok ? "PASS" : "FAIL");
  cudaFree(d_x);
  cudaFree(d_out);
  return ok ? 0 : 1;
}
