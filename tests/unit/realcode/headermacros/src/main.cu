#include <cuda_runtime.h>

#include <vector>

#include "lattice/stencil.h"

int main()
{
  const int nx = 2048, ny = 2048;
  std::vector<float> host(nx * ny, 0.0f);
  for (int x = 0; x < nx; ++x)
    host[lattice_index(x, 0, nx)] = 1.0f;
  float *d_a = nullptr, *d_b = nullptr;
  LATTICE_CHECK(cudaMalloc(&d_a, host.size() * sizeof(float)));
  LATTICE_CHECK(cudaMalloc(&d_b, host.size() * sizeof(float)));
  LATTICE_CHECK(cudaMemcpy(d_a, host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice));
  LATTICE_CHECK(cudaMemcpy(d_b, d_a, host.size() * sizeof(float), cudaMemcpyDeviceToDevice));
  lattice_relax(d_a, d_b, nx, ny, 0.8f, 100);
  LATTICE_CHECK(cudaMemcpy(host.data(), d_a, host.size() * sizeof(float), cudaMemcpyDeviceToHost));
  std::printf("centre %g\n", host[lattice_index(nx / 2, 1, nx)]);
  LATTICE_CHECK(cudaFree(d_a));
  LATTICE_CHECK(cudaFree(d_b));
  return 0;
}
