// Image resampling through texture objects: a float image in a CUDA array, read with bilinear
// filtering, clamped, at normalized coordinates; a linear-memory texture read by index; an RGBA8
// array read as normalized floats.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define IMG_CHECK(call)                                                                \
  do {                                                                                 \
    cudaError_t err_ = (call);                                                         \
    if (err_ != cudaSuccess) {                                                         \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
      std::exit(1);                                                                    \
    }                                                                                  \
  } while (0)

constexpr int kTile = 16;
// The source image's value at (x, y), also what the host checks against.
inline float image_value(int x, int y) { return static_cast<float>((x * 7 + y * 13) % 17) / 16.0f; }

// out (ow x oh) samples `tex` over [-0.125, 1.125) of its normalized range, so the edges clamp.
void resample(cudaTextureObject_t tex, float* out, int ow, int oh);
// out[i] = 2 * line[i] - line[n - 1 - i], read through the linear-memory texture `line`.
void mirror_difference(cudaTextureObject_t line, float* out, int n);
// out[i] = the four channels of rgba texel i, read as normalized floats.
void unpack_rgba(cudaTextureObject_t rgba, float4* out, int width, int height);
