#include "body.cuh"

__device__ float3 interact(float4 bi, float4 bj, float3 ai) {
  float3 r;
  r.x = bj.x - bi.x;
  r.y = bj.y - bi.y;
  r.z = bj.z - bi.z;
  float dist2 = r.x * r.x + r.y * r.y + r.z * r.z + SOFTENING;
  float inv = rsqrtf(dist2);
  float s = bj.w * inv * inv * inv;
  ai.x += r.x * s;
  ai.y += r.y * s;
  ai.z += r.z * s;
  return ai;
}

__global__ void accelerate(const float4* __restrict__ pos, float3* __restrict__ vel, int n, float dt) {
  __shared__ float4 tile[NBODY_BLOCK];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 me = i < n ? pos[i] : make_float4(0.f, 0.f, 0.f, 0.f);
  float3 acc = make_float3(0.f, 0.f, 0.f);
  for (int t = 0; t < gridDim.x; t++) {
    int j = t * blockDim.x + threadIdx.x;
    tile[threadIdx.x] = j < n ? pos[j] : make_float4(0.f, 0.f, 0.f, 0.f);
    __syncthreads();
    for (int k = 0; k < blockDim.x; k++) acc = interact(me, tile[k], acc);
    __syncthreads();
  }
  if (i < n) {
    vel[i].x += acc.x * dt;
    vel[i].y += acc.y * dt;
    vel[i].z += acc.z * dt;
  }
}

__global__ void integrate(float4* pos, const float3* vel, int n, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    pos[i].x += vel[i].x * dt;
    pos[i].y += vel[i].y * dt;
    pos[i].z += vel[i].z * dt;
  }
}

void nbody_step(Bodies d, int n, float dt) {
  int blocks = (n + NBODY_BLOCK - 1) / NBODY_BLOCK;
  accelerate<<<blocks, NBODY_BLOCK>>>(d.pos, d.vel, n, dt);
  integrate<<<blocks, NBODY_BLOCK>>>(d.pos, d.vel, n, dt);
}
