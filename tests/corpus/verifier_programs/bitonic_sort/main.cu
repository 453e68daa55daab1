// Sorts the keys listed in a text file (first number: count) with a bitonic network.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "sort.cuh"

int main(int argc, char** argv) {
  const char* path = argc > 1 ? argv[1] : "input.txt";
  FILE* fp = fopen(path, "r");
  if (fp == NULL) {
    printf("Error: could not open %s\n", path);
    return 1;
  }
  int count = 0;
  if (fscanf(fp, "%d", &count) != 1 || count <= 0) {
    printf("Error: bad header in %s\n", path);
    return 1;
  }
  int n = 2 * SORT_BLOCK;
  while (n < count) n <<= 1;
  std::vector<unsigned int> keys(n, 0xffffffffu);
  for (int i = 0; i < count; i++)
    if (fscanf(fp, "%u", &keys[i]) != 1) {
      printf("Error: %s ends after %d keys\n", path, i);
      return 1;
    }
  fclose(fp);

  unsigned int* d_keys;
  cudaMalloc(&d_keys, n * sizeof(unsigned int));
  cudaMemcpy(d_keys, keys.data(), n * sizeof(unsigned int), cudaMemcpyHostToDevice);
  auto t0 = std::chrono::steady_clock::now();
  cudaError_t err = bitonic_sort(d_keys, n);
  cudaDeviceSynchronize();
  auto t1 = std::chrono::steady_clock::now();
  if (err != cudaSuccess) {
    printf("sort failed: %s\n", cudaGetErrorString(err));
    return 1;
  }
  std::vector<unsigned int> sorted(n);
  cudaMemcpy(sorted.data(), d_keys, n * sizeof(unsigned int), cudaMemcpyDeviceToHost);
  cudaFree(d_keys);

  std::vector<unsigned int> ref(keys);
  std::sort(ref.begin(), ref.end());
  bool ok = sorted == ref;
  unsigned long long weighted = 0;
  for (int i = 0; i < count; i++) weighted += (unsigned long long)sorted[i] * (i % 7 + 1);
  double seconds = std::chrono::duration<double>(t1 - t0).count();
  printf("%d keys (padded to %d)\n", count, n);
  printf("min %u  median %u  max %u  weighted checksum %llu\n", sorted[0], sorted[count / 2], sorted[count - 1], weighted);
  printf("throughput: %.1f items/s\n", count / seconds);
  printf("%s\n", ok ? "Result = PASS" : "Result = FAIL");
  return ok ? 0 : 1;
}
