#pragma once

#include "config.h"

struct StencilArgs {
  const float* in;
  float* out;
  int nx;
  int ny;
  float alpha;
};

LATTICE_EXTERN_C void lattice_relax(float* d_in, float* d_out, int nx, int ny, float alpha, int sweeps);

LATTICE_HOST_DEVICE LATTICE_INLINE int lattice_index(int x, int y, int nx) { return y * nx + x; }
