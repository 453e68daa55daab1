#pragma once
#include <cstdio>

class vec3 {
 public:
  float x, y, z;
  __host__ __device__ vec3() : x(0.0f), y(0.0f), z(0.0f) {}
  __host__ __device__ vec3(float a, float b, float c) : x(a), y(b), z(c) {}
  __host__ __device__ vec3 operator+(const vec3& o) const;
  __host__ __device__ vec3 operator*(float s) const;
  __host__ __device__ float length() const;
};
