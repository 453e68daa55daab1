#include "vec3.h"
#include <cmath>

__host__ __device__ vec3 vec3::operator+(const vec3& o) const { return vec3(x + o.x, y + o.y, z + o.z); }
__host__ __device__ vec3 vec3::operator*(float s) const { return vec3(x * s, y * s, z * s); }
__host__ __device__ float vec3::length() const { return sqrtf(x * x + y * y + z * z); }
