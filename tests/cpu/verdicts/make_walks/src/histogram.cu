#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "bins.cu"

int32_t main(int32_t argc, char* argv[]) {
  const int walkers = argc > 1 ? std::atoi(argv[1]) : 1 << 20;
  int* d_end = nullptr;
  unsigned int* d_bins = nullptr;
  WALK_CHECK(cudaMalloc(&d_end, walkers * sizeof(int)));
  WALK_CHECK(cudaMalloc(&d_bins, kBins * sizeof(unsigned int)));
  WALK_CHECK(cudaMemset(d_bins, 0, kBins * sizeof(unsigned int)));
  end_points<<<(walkers + 255) / 256, 256>>>(walkers, d_end);
  bin_counts<<<8, 256>>>(d_end, walkers, d_bins);
  WALK_CHECK(cudaGetLastError());
  std::vector<unsigned int> bins(kBins);
  WALK_CHECK(cudaMemcpy(bins.data(), d_bins, kBins * sizeof(unsigned int), cudaMemcpyDeviceToHost));
  for (int b = 0; b < kBins; b += 8) std::printf("%+4d %u\n", b - WALK_STEPS, bins[b]);
  WALK_CHECK(cudaFree(d_end));
  WALK_CHECK(cudaFree(d_bins));
  return 0;
}
