// Two-level inclusive scan: warp shuffles inside blocks, a scan of the block totals on the GPU.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "scan.h"

int main(int argc, char** argv) {
  int n = argc > 1 ? atoi(argv[1]) : 60000;
  int blocks = (n + SCAN_THREADS - 1) / SCAN_THREADS;
  if (blocks > SCAN_THREADS) {
    fprintf(stderr, "n must be at most %d\n", SCAN_THREADS * SCAN_THREADS);
    return 2;
  }
  std::vector<int> h(n), out(n);
  std::vector<long long> ref(n);
  for (int i = 0; i < n; i++) h[i] = (i * 2654435761u >> 28) - 7;
  reference_scan(h.data(), ref.data(), n);

  int *d_in, *d_out, *d_totals, *d_offsets;
  cudaMalloc(&d_in, n * sizeof(int));
  cudaMalloc(&d_out, n * sizeof(int));
  cudaMalloc(&d_totals, blocks * sizeof(int));
  cudaMalloc(&d_offsets, blocks * sizeof(int));
  cudaMemcpy(d_in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  auto start = std::chrono::steady_clock::now();
  inclusive_scan_blocks(d_in, d_out, d_totals, n);
  inclusive_scan_blocks(d_totals, d_offsets, d_totals, blocks);  // one block: totals[0] is scratch
  add_block_offsets(d_out, d_offsets, n);
  cudaDeviceSynchronize();
  auto stop = std::chrono::steady_clock::now();
  cudaMemcpy(out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost);

  int bad = first_mismatch(out.data(), ref.data(), n);
  printf("inclusive scan, n = %d, %d blocks\n", n, blocks);
  printf("out[0] = %d, out[255] = %d, out[256] = %d, out[n-1] = %d\n", out[0], out[255 % n], out[256 % n], out[n - 1]);
  printf("scan took %.0f usec\n", std::chrono::duration<double, std::micro>(stop - start).count());
  if (bad >= 0) printf("mismatch at %d: got %d, want %lld\nFAIL\n", bad, out[bad], ref[bad]);
  else printf("PASS\n");
  cudaFree(d_in);
  cudaFree(d_out);
  cudaFree(d_totals);
  cudaFree(d_offsets);
  return bad >= 0;
}
