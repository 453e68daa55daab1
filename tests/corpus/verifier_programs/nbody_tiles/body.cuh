#pragma once
#include <cuda_runtime.h>

#define SOFTENING 1e-3f
#define NBODY_BLOCK 128

struct Bodies {
  float4* pos;  // xyz position, w mass
  float3* vel;
};

void nbody_step(Bodies d, int n, float dt);
// host_ref.cpp
void body_acceleration_host(const float* xyzw, int n, int i, float acc[3]);
