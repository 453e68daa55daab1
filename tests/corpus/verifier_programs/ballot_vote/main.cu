// Counts elements by warp votes (ballot + popc, all) and compares with host counts.
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <vector>

#include "vote.cuh"

int main(int argc, char** argv) {
  int n = argc > 1 ? atoi(argv[1]) : 40000;
  float threshold = argc > 2 ? (float)atof(argv[2]) : 0.6f;
  std::vector<float> x(n);
  for (int i = 0; i < n; i++) x[i] = sinf(i * 0.731f) + 0.3f * cosf(i * 0.017f);
  for (int i = 1000; i < n; i += 4099) x[i] = std::numeric_limits<float>::infinity();

  float* d_x;
  cudaMalloc(&d_x, n * sizeof(float));
  cudaMemcpy(d_x, x.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  VoteCounts got;
  auto t0 = std::chrono::steady_clock::now();
  if (count_votes(d_x, n, threshold, &got) != cudaSuccess) return 1;
  auto t1 = std::chrono::steady_clock::now();
  cudaFree(d_x);

  unsigned above = 0, negative = 0, clean = 0;
  for (int b = 0; b * THREADS < n; b++) {
    bool ok = true;
    for (int i = b * THREADS; i < n && i < (b + 1) * THREADS; i++) {
      above += x[i] > threshold;
      negative += x[i] < 0.0f;
      ok = ok && std::isfinite(x[i]);
    }
    clean += ok;
  }
  printf("n=%d threshold=%.2f\n", n, threshold);
  printf("above: %u (host %u)\n", got.above, above);
  printf("negative: %u (host %u)\n", got.negative, negative);
  printf("clean blocks: %u (host %u)\n", got.clean, clean);
  printf("Kernel time: %.3f ms\n", std::chrono::duration<double, std::milli>(t1 - t0).count());
  bool ok = got.above == above && got.negative == negative && got.clean == clean;
  printf(ok ? "PASS\n" : "FAIL\n");
  return ok ? 0 : 1;
}
