// Host reference for one body's acceleration: plain C++, built by the host compiler. Positions are
// packed x, y, z, mass (the layout of the device's float4).
#include <cmath>

static const float kSoftening = 1e-3f;  // keep in step with SOFTENING in body.cuh

void body_acceleration_host(const float* xyzw, int n, int i, float acc[3]) {
  acc[0] = acc[1] = acc[2] = 0.f;
  const float* me = xyzw + 4 * i;
  for (int j = 0; j < n; j++) {
    const float* other = xyzw + 4 * j;
    float rx = other[0] - me[0], ry = other[1] - me[1], rz = other[2] - me[2];
    float d2 = rx * rx + ry * ry + rz * rz + kSoftening;
    float inv = 1.0f / std::sqrt(d2);
    float s = other[3] * inv * inv * inv;
    acc[0] += rx * s;
    acc[1] += ry * s;
    acc[2] += rz * s;
  }
}
