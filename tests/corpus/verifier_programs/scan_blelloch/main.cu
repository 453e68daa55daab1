// Exclusive scan of a pseudo-random int array; the result is checked element by element.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "scan.cuh"

int main(int argc, char** argv) {
  int n = argc > 1 ? atoi(argv[1]) : 50000;
  if (n > SCAN_ELEMS * SCAN_ELEMS) {
    printf("n too large (max %d)\n", SCAN_ELEMS * SCAN_ELEMS);
    return 2;
  }
  std::vector<int> h(n), out(n);
  unsigned seed = 12345u;
  for (int i = 0; i < n; i++) {
    seed = seed * 1103515245u + 12345u;
    h[i] = (int)((seed >> 16) % 10);
  }
  int* d;
  cudaMalloc(&d, n * sizeof(int));
  cudaMemcpy(d, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  auto start = std::chrono::high_resolution_clock::now();
  exclusive_scan(d, n);
  cudaDeviceSynchronize();
  auto stop = std::chrono::high_resolution_clock::now();
  cudaMemcpy(out.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d);

  long long running = 0;
  int first_bad = -1;
  for (int i = 0; i < n; i++) {
    if (out[i] != running && first_bad < 0) first_bad = i;
    running += h[i];
  }
  printf("scan of %d elements\n", n);
  printf("out[1] = %d, out[n/3] = %d, out[n-1] = %d, total = %lld\n", out[1], out[n / 3], out[n - 1], running);
  printf("Time: %.3f msec\n", std::chrono::duration<double, std::milli>(stop - start).count());
  if (first_bad >= 0) {
    printf("FAIL at %d: %d != expected\n", first_bad, out[first_bad]);
    return 1;
  }
  printf("PASS\n");
  return 0;
}
