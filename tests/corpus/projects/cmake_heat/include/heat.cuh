// Shared by every unit: the plate, the error check and the kernels' launchers.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#ifndef HEAT_TILE
#error "HEAT_TILE comes from the build (target_compile_definitions)"
#endif

#define CUDA_CHECK(call)                                                              \
  do {                                                                                \
    cudaError_t err_ = (call);                                                        \
    if (err_ != cudaSuccess) {                                                        \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
      std::exit(1);                                                                   \
    }                                                                                 \
  } while (0)

struct Plate {
  int width;
  int height;
  float* cells;  // device memory, width * height
};

__host__ __device__ inline int cell_index(int x, int y, int width) { return y * width + x; }

// One Jacobi step of the heat equation; the border keeps its temperature.
void step_plate(const Plate& from, Plate& to, float alpha);
// Sum and maximum of the plate's cells.
void plate_stats(const Plate& plate, float* sum, float* max);
