#include <utility>
#include <vector>

#include "heat.h"
#include "stencil.cu"
#include "../kernels/boundary.cu"

int main(int argc, char** argv) {
  const Grid g{argc > 1 ? std::atoi(argv[1]) : 2048, argc > 2 ? std::atoi(argv[2]) : 2048, 0.2f};
  const int steps = argc > 3 ? std::atoi(argv[3]) : 100;
  const size_t cells = static_cast<size_t>(g.nx) * g.ny;
  float *a = nullptr, *b = nullptr;
  HEAT_CHECK(cudaMalloc(&a, cells * sizeof(float)));
  HEAT_CHECK(cudaMalloc(&b, cells * sizeof(float)));
  HEAT_CHECK(cudaMemset(a, 0, cells * sizeof(float)));
  HEAT_CHECK(cudaMemset(b, 0, cells * sizeof(float)));
  const dim3 threads(16, 16), blocks((g.nx + 15) / 16, (g.ny + 15) / 16);
  for (int s = 0; s < steps; ++s) {
    hold_edges<<<(g.nx + 255) / 256, 256>>>(g, a, 100.0f);
    stencil_step<<<blocks, threads>>>(g, a, b);
    std::swap(a, b);
  }
  HEAT_CHECK(cudaGetLastError());
  std::vector<float> t(cells);
  HEAT_CHECK(cudaMemcpy(t.data(), a, cells * sizeof(float), cudaMemcpyDeviceToHost));
  HEAT_CHECK(cudaFree(a));
  HEAT_CHECK(cudaFree(b));
  std::printf("t[1][nx/2] = %.3f\n", t[g.nx + g.nx / 2]);
  return 0;
}
