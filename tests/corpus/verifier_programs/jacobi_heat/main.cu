// Explicit heat diffusion on a plate with one hot edge; parameters from a file (default input.txt).
#include <cmath>
#include <cstdio>
#include <vector>

#include "grid.h"

int main(int argc, char** argv) {
  const char* path = argc > 1 ? argv[1] : "input.txt";
  HeatParams p;
  if (!read_params(path, &p)) {
    fprintf(stderr, "could not read parameters from %s\n", path);
    return 1;
  }
  size_t cells = (size_t)p.nx * p.ny;
  std::vector<float> u(cells, 0.0f);
  for (int x = 0; x < p.nx; x++) u[x] = p.hot_edge;
  std::vector<float> ref(u);

  float *d_u, *d_tmp;
  cudaMalloc(&d_u, cells * sizeof(float));
  cudaMalloc(&d_tmp, cells * sizeof(float));
  cudaMemcpy(d_u, u.data(), cells * sizeof(float), cudaMemcpyHostToDevice);
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  jacobi_gpu(p, d_u, d_tmp, nullptr);
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  cudaMemcpy(u.data(), d_u, cells * sizeof(float), cudaMemcpyDeviceToHost);

  jacobi_host(p, ref.data());
  double diff = 0.0, heat = 0.0;
  for (size_t i = 0; i < cells; i++) {
    diff = fmax(diff, fabs(u[i] - ref[i]));
    heat += u[i];
  }
  printf("plate %d x %d, %d iterations, alpha %.3f\n", p.nx, p.ny, p.iterations, p.alpha);
  printf("u(center) = %.5f, u(1, ny/2) = %.5f, total heat = %.3f\n", u[(p.ny / 2) * p.nx + p.nx / 2],
         u[(p.ny / 2) * p.nx + 1], heat);
  printf("average kernel execution time: %.4f ms\n", ms / p.iterations);
  printf("max |gpu - host| = %.3e %s\n", diff, diff < 1e-4 ? "PASS" : "FAIL");
  cudaFree(d_u);
  cudaFree(d_tmp);
  return diff < 1e-4 ? 0 : 1;
}
