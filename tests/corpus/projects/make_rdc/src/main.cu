#include <cstdio>
#include <vector>

#include "body.cuh"

int main() {
  const int n = 256;
  std::vector<Body> host(n);
  for (int i = 0; i < n; ++i) {
    host[i].pos = make_float3(static_cast<float>(i % 16), static_cast<float>(i / 16), 0.0f);
    host[i].vel = make_float3(0.0f, 0.0f, 0.0f);
    host[i].mass = 1.0f;
  }
  Body* d = nullptr;
  NB_CHECK(cudaMalloc(&d, n * sizeof(Body)));
  NB_CHECK(cudaMemcpy(d, host.data(), n * sizeof(Body), cudaMemcpyHostToDevice));
  for (int s = 0; s < 10; ++s) step_kernel<<<(n + 127) / 128, 128>>>(d, n, 0.01f, 1e-3f);
  NB_CHECK(cudaGetLastError());
  NB_CHECK(cudaMemcpy(host.data(), d, n * sizeof(Body), cudaMemcpyDeviceToHost));
  NB_CHECK(cudaFree(d));
  std::printf("v[0] = (%.4f, %.4f)\n", host[0].vel.x, host[0].vel.y);
  return 0;
}
