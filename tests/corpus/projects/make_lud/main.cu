#include <vector>

#include "common.h"
#include "src/lud_kernels.cu"

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 1024;
  std::vector<float> host(static_cast<size_t>(n) * n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) host[static_cast<size_t>(i) * n + j] = i == j ? n : 1.0f / (1 + i + j);
  float* d = nullptr;
  LUD_CHECK(cudaMalloc(&d, host.size() * sizeof(float)));
  LUD_CHECK(cudaMemcpy(d, host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice));
  for (int offset = 0; offset < n; offset += LUD_BLOCK) {
    lud_diagonal<<<1, LUD_BLOCK>>>(d, n, offset);
    const int rest = (n - offset - LUD_BLOCK + LUD_BLOCK - 1) / LUD_BLOCK;
    if (rest > 0) lud_internal<<<dim3(rest, rest), dim3(LUD_BLOCK, LUD_BLOCK)>>>(d, n, offset);
  }
  LUD_CHECK(cudaGetLastError());
  LUD_CHECK(cudaMemcpy(host.data(), d, host.size() * sizeof(float), cudaMemcpyDeviceToHost));
  LUD_CHECK(cudaFree(d));
  std::printf("u[n-1][n-1] = %.4f\n", host.back());
  return 0;
}
