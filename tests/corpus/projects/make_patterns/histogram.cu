#include <vector>

#include "common.cuh"

void histogram(const unsigned* d_keys, int n, unsigned* d_bins, int nbins);

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 1 << 22;
  const int nbins = 64;
  std::vector<unsigned> keys(n);
  for (int i = 0; i < n; ++i) keys[i] = static_cast<unsigned>(i) * 2654435761u;
  unsigned *d_keys = nullptr, *d_bins = nullptr;
  CHECK(cudaMalloc(&d_keys, n * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_bins, nbins * sizeof(unsigned)));
  CHECK(cudaMemcpy(d_keys, keys.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
  histogram(d_keys, n, d_bins, nbins);
  std::vector<unsigned> bins(nbins);
  CHECK(cudaMemcpy(bins.data(), d_bins, nbins * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d_keys));
  CHECK(cudaFree(d_bins));
  std::printf("bin[0] = %u of %d\n", bins[0], n);
  return 0;
}
