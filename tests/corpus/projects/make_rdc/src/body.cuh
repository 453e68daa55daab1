#pragma once
#include <cuda_runtime.h>

struct Body {
  float3 pos;
  float3 vel;
  float mass;
};

// Defined in forces.cu, called from integrate.cu's kernel: needs relocatable device code.
__device__ float3 accel_on(const Body* bodies, int n, int i, float softening);
// Defined in integrate.cu.
__global__ void step_kernel(Body* bodies, int n, float dt, float softening);

#define NB_CHECK(call)                                \
  do {                                                \
    cudaError_t e_ = (call);                          \
    if (e_ != cudaSuccess) return static_cast<int>(e_); \
  } while (0)
