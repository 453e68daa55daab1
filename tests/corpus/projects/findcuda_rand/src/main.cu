#include <cstdio>

#include "montecarlo.cuh"

int main() {
  const int blocks = 32, samples = 1000, threads = blocks * mc::kThreads;
  curandStatePhilox4_32_10_t* states = nullptr;
  unsigned* hits = nullptr;
  MC_CHECK(cudaMalloc(&states, threads * sizeof(*states)));
  MC_CHECK(cudaMalloc(&hits, threads * sizeof(unsigned)));
  mc::seed(states, blocks, 1234ULL);
  mc::sample(states, hits, blocks, samples);
  MC_CHECK(cudaDeviceSynchronize());
  double pi = 0.0;
  int rc = mc::estimate(hits, threads, samples, &pi);
  MC_CHECK(cudaFree(states));
  MC_CHECK(cudaFree(hits));
  if (rc != 0) return 1;
  std::printf("pi ~= %.4f\n", pi);
  return 0;
}
