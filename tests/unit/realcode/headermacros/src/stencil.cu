// Jacobi relaxation of a 2D lattice: one thread per interior point, rows unrolled by the
// library's pragma macros.
#include <cuda_runtime.h>

#include "lattice/stencil.h"

LATTICE_DEVICE LATTICE_INLINE float neighbours(const float* LATTICE_RESTRICT in, int x, int y, int nx)
{
  float sum = 0.0f;
  LATTICE_UNROLL_ALL
  for (int d = -1; d <= 1; d += 2) {
    sum += in[lattice_index(x + d, y, nx)];
    sum += in[lattice_index(x, y + d, nx)];
  }
  return sum;
}

__global__ void relax_kernel(const StencilArgs LATTICE_GRID_CONSTANT args)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y0 = blockIdx.y * blockDim.y * 4 + threadIdx.y;
  LATTICE_UNROLL(4)
  for (int r = 0; r < 4; ++r) {
    int y = y0 + r * blockDim.y;
    if (x < 1 || y < 1 || x >= args.nx - 1 || y >= args.ny - 1)
      continue;
    int i = lattice_index(x, y, args.nx);
    args.out[i] = (1.0f - args.alpha) * args.in[i] + args.alpha * 0.25f * neighbours(args.in, x, y, args.nx);
  }
}

LATTICE_EXTERN_C void lattice_relax(float* d_in, float* d_out, int nx, int ny, float alpha, int sweeps)
{
  dim3 block(32, 8);
  dim3 grid((nx + block.x - 1) / block.x, (ny + block.y * 4 - 1) / (block.y * 4));
  LATTICE_NO_UNROLL
  for (int s = 0; s < sweeps; ++s) {
    StencilArgs args{d_in, d_out, nx, ny, alpha};
    relax_kernel<<<grid, block>>>(args);
    LATTICE_CHECK(cudaGetLastError())
    float* t = d_in;
    d_in = d_out;
    d_out = t;
  }
  LATTICE_CHECK(cudaDeviceSynchronize());
}
