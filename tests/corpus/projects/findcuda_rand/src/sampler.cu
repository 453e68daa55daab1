#include "montecarlo.cuh"

namespace mc {
__global__ void seed_kernel(curandStatePhilox4_32_10_t* states, unsigned long long seed_value) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curand_init(seed_value, id, 0, &states[id]);
}

__global__ void sample_kernel(curandStatePhilox4_32_10_t* states, unsigned* hits, int samples) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curandStatePhilox4_32_10_t local = states[id];
  unsigned inside = 0;
  for (int i = 0; i < samples; ++i) {
    float x = curand_uniform(&local);
    float y = curand_uniform(&local);
    inside += (x * x + y * y <= 1.0f) ? 1u : 0u;
  }
  states[id] = local;
  hits[id] = inside;
}

void seed(curandStatePhilox4_32_10_t* states, int blocks, unsigned long long seed_value) {
  seed_kernel<<<blocks, kThreads>>>(states, seed_value);
}

void sample(curandStatePhilox4_32_10_t* states, unsigned* hits, int blocks, int samples) {
  sample_kernel<<<blocks, kThreads>>>(states, hits, samples);
}
}  // namespace mc
