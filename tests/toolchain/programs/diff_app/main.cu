// Filters a synthetic signal of n samples (argument, default 65536) and prints checksums.
#include "common.cuh"

int main(int argc, char** argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 65536;
  if (n <= 0) {
    std::fprintf(stderr, "usage: %s [samples]\n", argv[0]);
    return 1;
  }
  int* host = new int[n];
  int* result = new int[n];
  for (int i = 0; i < n; ++i) host[i] = (i * 37 + 11) % 1000;
  long long weighted = run_filters(host, result, n);
  std::printf("samples = %d\n", n);
  std::printf("weighted = %lld\n", weighted);
  std::printf("diff[1] = %d diff[%d] = %d\n", result[1], n - 1, result[n - 1]);
  delete[] host;
  delete[] result;
  return 0;
}
