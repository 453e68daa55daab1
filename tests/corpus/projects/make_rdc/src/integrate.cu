#include "body.cuh"

__global__ void step_kernel(Body* bodies, int n, float dt, float softening) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float3 a = accel_on(bodies, n, i, softening);
  bodies[i].vel.x += a.x * dt;
  bodies[i].vel.y += a.y * dt;
  bodies[i].vel.z += a.z * dt;
}
