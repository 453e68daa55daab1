// Block-wise radix sort of 16-bit keys; each block's run is checked against std::sort.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "radix.cuh"

int main(int argc, char** argv) {
  int n = argc > 1 ? atoi(argv[1]) : 16000;
  std::vector<unsigned short> keys(n), out(n);
  unsigned x = 777u;
  for (int i = 0; i < n; i++) {
    x = x * 1103515245u + 12345u;
    keys[i] = (unsigned short)(x >> 13);
  }
  unsigned short* d;
  cudaMalloc(&d, n * sizeof(unsigned short));
  cudaMemcpy(d, keys.data(), n * sizeof(unsigned short), cudaMemcpyHostToDevice);
  auto t0 = std::chrono::high_resolution_clock::now();
  block_radix_sort(d, n);
  cudaDeviceSynchronize();
  auto t1 = std::chrono::high_resolution_clock::now();
  cudaMemcpy(out.data(), d, n * sizeof(unsigned short), cudaMemcpyDeviceToHost);
  cudaFree(d);

  int bad_blocks = 0;
  unsigned long long check = 0;
  for (int b = 0; b < n; b += RADIX_THREADS) {
    int e = std::min(n, b + RADIX_THREADS);
    std::vector<unsigned short> ref(keys.begin() + b, keys.begin() + e);
    std::sort(ref.begin(), ref.end());
    if (!std::equal(ref.begin(), ref.end(), out.begin() + b)) bad_blocks++;
  }
  for (int i = 0; i < n; i++) check = check * 31 + out[i];
  double ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
  printf("%d keys in blocks of %d\n", n, RADIX_THREADS);
  printf("block 0: %u %u %u ... %u\n", out[0], out[1], out[2], out[RADIX_THREADS - 1]);
  printf("checksum %llu\n", check);
  printf("Sorting rate: %.2f Mkeys/s (%.3f ms)\n", n / ms / 1e3, ms);
  printf("unsorted blocks: %d\n%s\n", bad_blocks, bad_blocks ? "FAIL" : "PASS");
  return bad_blocks ? 1 : 0;
}
