// Histogram of the bytes of a binary file (data.bin by default).
#include <chrono>
#include <vector>

#include "common.h"

int main(int argc, char** argv) {
  const char* path = argc > 1 ? argv[1] : "data.bin";
  int repeat = argc > 2 ? atoi(argv[2]) : 10;
  FILE* f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "cannot open %s\n", path);
    return 1;
  }
  std::vector<unsigned char> data;
  unsigned char buf[4096];
  size_t got;
  while ((got = fread(buf, 1, sizeof(buf), f)) > 0) data.insert(data.end(), buf, buf + got);
  fclose(f);
  int n = (int)data.size();
  printf("read %d bytes from %s\n", n, path);

  unsigned char* d_data;
  unsigned int* d_bins;
  CHECK(cudaMalloc(&d_data, n));
  CHECK(cudaMalloc(&d_bins, NUM_BINS * sizeof(unsigned int)));
  CHECK(cudaMemcpy(d_data, data.data(), n, cudaMemcpyHostToDevice));

  int blocks = (n + BLOCK_SIZE * 8 - 1) / (BLOCK_SIZE * 8);
  auto t0 = std::chrono::high_resolution_clock::now();
  for (int r = 0; r < repeat; r++) histogram_gpu(d_data, n, d_bins, blocks);
  CHECK(cudaDeviceSynchronize());
  auto t1 = std::chrono::high_resolution_clock::now();
  double us = std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count() / 1000.0;

  unsigned int bins[NUM_BINS];
  CHECK(cudaMemcpy(bins, d_bins, sizeof(bins), cudaMemcpyDeviceToHost));
  unsigned int ref[NUM_BINS] = {0};
  for (int i = 0; i < n; i++) ref[data[i] % NUM_BINS]++;

  bool ok = true;
  unsigned long long total = 0;
  for (int b = 0; b < NUM_BINS; b++) {
    if (bins[b] != ref[b]) ok = false;
    total += bins[b];
  }
  for (int b = 0; b < NUM_BINS; b += 8)
    printf("bins %2d..%2d: %5u %5u %5u %5u %5u %5u %5u %5u\n", b, b + 7, bins[b], bins[b + 1], bins[b + 2],
           bins[b + 3], bins[b + 4], bins[b + 5], bins[b + 6], bins[b + 7]);
  printf("total %llu\n", total);
  printf("Average kernel execution time %.1f (us)\n", us / repeat);
  printf("%s\n", ok ? "PASS" : "FAIL");
  cudaFree(d_data);
  cudaFree(d_bins);
  return ok ? 0 : 1;
}
