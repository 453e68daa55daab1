// Reads its sizes from input.txt, runs the kernels of ops.cu, checks them against the host.
#include <chrono>
#include <cmath>
#include <fstream>
#include "common.cuh"

int main(int argc, char** argv) {
  const char* path = argc > 1 ? argv[1] : "input.txt";
  std::ifstream input(path);
  int n = 0, seed = 0;
  if (!(input >> n >> seed) || n <= 0) {
    std::fprintf(stderr, "cannot read %s\n", path);
    return 1;
  }
  float* host = new float[n];
  for (int i = 0; i < n; ++i) host[i] = static_cast<float>((i * seed) % 17) * 0.25f;
  double expected = 0.0;
  for (int i = 0; i < n; ++i) expected += host[i] * SCALE;
  auto begin = std::chrono::steady_clock::now();
  float kernel_ms = 0.0f;
  float total = run_ops(host, n, &kernel_ms);
  double wall = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count();
  std::printf("n = %d\n", n);
  std::printf("sum = %.3f (host %.3f)\n", total, expected);
  std::printf("first = %.2f last = %.2f\n", host[0 + 1], host[n - 1]);
  std::printf("kernel time %.4f (ms)\n", kernel_ms);
  std::printf("%-6s %9.3f %6.1f\n", "ops", wall, n / (wall * 1e3));
  std::printf("%s\n", std::fabs(total - expected) < 1e-3 * expected ? "PASS" : "FAIL");
  delete[] host;
  return 0;
}
