#include "body.cuh"

__device__ float3 accel_on(const Body* bodies, int n, int i, float softening) {
  float3 a = make_float3(0.0f, 0.0f, 0.0f);
  const float3 p = bodies[i].pos;
  for (int j = 0; j < n; ++j) {
    float3 d = make_float3(bodies[j].pos.x - p.x, bodies[j].pos.y - p.y, bodies[j].pos.z - p.z);
    float r2 = d.x * d.x + d.y * d.y + d.z * d.z + softening;
    float inv = rsqrtf(r2);
    float s = bodies[j].mass * inv * inv * inv;
    a.x += d.x * s;
    a.y += d.y * s;
    a.z += d.z * s;
  }
  return a;
}
