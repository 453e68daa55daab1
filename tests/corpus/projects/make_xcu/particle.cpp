#include "particle.h"
#include <cstdlib>

#define CHECK(call)                                                                          \
  do {                                                                                       \
    cudaError_t status_ = (call);                                                            \
    if (status_ != cudaSuccess) {                                                            \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(status_)); \
      std::exit(1);                                                                          \
    }                                                                                        \
  } while (0)

__global__ void step(particle* p, int n, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i].position = p[i].position + p[i].velocity * dt;
}

float advance(particle* host, int n, int steps, float dt) {
  particle* device = nullptr;
  CHECK(cudaMalloc(&device, n * sizeof(particle)));
  CHECK(cudaMemcpy(device, host, n * sizeof(particle), cudaMemcpyHostToDevice));
  for (int s = 0; s < steps; ++s) {
    step<<<(n + 127) / 128, 128>>>(device, n, dt);
    CHECK(cudaGetLastError());
  }
  CHECK(cudaMemcpy(host, device, n * sizeof(particle), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(device));
  float total = 0.0f;
  for (int i = 0; i < n; ++i) total += host[i].position.length();
  return total;
}
