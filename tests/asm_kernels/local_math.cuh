// A device helper that lives in a header and is inlined into the kernel that includes it.
#pragma once

__device__ inline float smooth_step(float edge0, float edge1, float x) {
  float t = (x - edge0) / (edge1 - edge0);  // HEADER_DIV_LINE
  t = fminf(fmaxf(t, 0.0f), 1.0f);
  return t * t * (3.0f - 2.0f * t);
}
