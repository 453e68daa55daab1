// The benchmark driver of the same scan, as a separate program of the folder.
#include <cstdint>
#include <vector>

#include "scan.cuh"

int32_t
main(int32_t argc, char* argv[])
{
  const int32_t n = argc > 1 ? std::atoi(argv[1]) : 1 << 20;
  const int32_t blocks = (n + kScanBlock - 1) / kScanBlock;
  float *in, *out, *totals;
  SCAN_CHECK(cudaMalloc(&in, n * sizeof(float)));
  SCAN_CHECK(cudaMalloc(&out, n * sizeof(float)));
  SCAN_CHECK(cudaMalloc(&totals, blocks * sizeof(float)));
  std::vector<float> ones(n, 1.0f);
  SCAN_CHECK(cudaMemcpy(in, ones.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  for (int rep = 0; rep < 3; ++rep) block_scan(in, out, totals, n);
  std::vector<float> last(blocks);
  SCAN_CHECK(cudaMemcpy(last.data(), totals, blocks * sizeof(float), cudaMemcpyDeviceToHost));
  std::printf("bench n %d: last block total %.0f\n", n, last[blocks - 1]);
  SCAN_CHECK(cudaFree(in));
  SCAN_CHECK(cudaFree(out));
  SCAN_CHECK(cudaFree(totals));
  return 0;
}
