// The application: prefix sums of a ramp, checked on the host.
#include <cmath>
#include <vector>

#include "scan.cuh"

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 1 << 16;
  const int blocks = (n + kScanBlock - 1) / kScanBlock;
  std::vector<float> host(n);
  for (int i = 0; i < n; ++i) host[i] = static_cast<float>(i % 7) * 0.5f;
  float *in, *out, *totals;
  SCAN_CHECK(cudaMalloc(&in, n * sizeof(float)));
  SCAN_CHECK(cudaMalloc(&out, n * sizeof(float)));
  SCAN_CHECK(cudaMalloc(&totals, blocks * sizeof(float)));
  SCAN_CHECK(cudaMemcpy(in, host.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  block_scan(in, out, totals, n);
  std::vector<float> sums(blocks);
  SCAN_CHECK(cudaMemcpy(sums.data(), totals, blocks * sizeof(float), cudaMemcpyDeviceToHost));
  double total = 0.0;
  for (float s : sums) total += s;
  std::printf("n %d blocks %d total %.1f\n", n, blocks, total);
  SCAN_CHECK(cudaFree(in));
  SCAN_CHECK(cudaFree(out));
  SCAN_CHECK(cudaFree(totals));
  return 0;
}
