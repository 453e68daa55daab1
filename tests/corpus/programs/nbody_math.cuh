// Shared device helpers for the n-body program: vector math and the pairwise force.
#pragma once
#include <cstdio>
#include <cuda_runtime.h>

#define NBODY_SOFTENING 1e-3f

struct Body {
    float4 pos;  // xyz position, w mass
    float4 vel;
};

__host__ __device__ inline float3 operator-(float3 a, float3 b) { return make_float3(a.x - b.x, a.y - b.y, a.z - b.z); }
__host__ __device__ inline float3 operator+(float3 a, float3 b) { return make_float3(a.x + b.x, a.y + b.y, a.z + b.z); }
__host__ __device__ inline float3 operator*(float s, float3 a) { return make_float3(s * a.x, s * a.y, s * a.z); }
__host__ __device__ inline float dot3(float3 a, float3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
__host__ __device__ inline float3 xyz(float4 v) { return make_float3(v.x, v.y, v.z); }

__device__ __forceinline__ float3 pair_acceleration(float4 self, float4 other, float3 acc)
{
    float3 r = xyz(other) - xyz(self);
    float dist2 = dot3(r, r) + NBODY_SOFTENING * NBODY_SOFTENING;
    float inv = rsqrtf(dist2);
    float inv3 = inv * inv * inv;
    return acc + (other.w * inv3) * r;
}

inline void check_launch(const char* what)
{
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) printf("%s: %s\n", what, cudaGetErrorString(e));
}
