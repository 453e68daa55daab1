#include "heat.cuh"

// A tile of the plate with a one-cell halo in shared memory.
__global__ void jacobi_step(const float* __restrict__ in, float* __restrict__ out, int width, int height,
                            float alpha) {
  __shared__ float tile[HEAT_TILE + 2][HEAT_TILE + 2];
  const int x = blockIdx.x * HEAT_TILE + threadIdx.x;
  const int y = blockIdx.y * HEAT_TILE + threadIdx.y;
  const int tx = threadIdx.x + 1;
  const int ty = threadIdx.y + 1;
  const bool inside = x < width && y < height;
  tile[ty][tx] = inside ? in[cell_index(x, y, width)] : 0.0f;
  if (threadIdx.x == 0 && x > 0 && inside) tile[ty][0] = in[cell_index(x - 1, y, width)];
  if (threadIdx.x == HEAT_TILE - 1 && x + 1 < width && inside) tile[ty][tx + 1] = in[cell_index(x + 1, y, width)];
  if (threadIdx.y == 0 && y > 0 && inside) tile[0][tx] = in[cell_index(x, y - 1, width)];
  if (threadIdx.y == HEAT_TILE - 1 && y + 1 < height && inside) tile[ty + 1][tx] = in[cell_index(x, y + 1, width)];
  __syncthreads();
  if (!inside) return;
  if (x == 0 || y == 0 || x == width - 1 || y == height - 1) {
    out[cell_index(x, y, width)] = tile[ty][tx];
    return;
  }
  const float laplacian = tile[ty][tx - 1] + tile[ty][tx + 1] + tile[ty - 1][tx] + tile[ty + 1][tx] - 4.0f * tile[ty][tx];
  out[cell_index(x, y, width)] = tile[ty][tx] + alpha * laplacian;
}

void step_plate(const Plate& from, Plate& to, float alpha) {
  const dim3 block(HEAT_TILE, HEAT_TILE);
  const dim3 grid((from.width + HEAT_TILE - 1) / HEAT_TILE, (from.height + HEAT_TILE - 1) / HEAT_TILE);
  jacobi_step<<<grid, block>>>(from.cells, to.cells, from.width, from.height, alpha);
  CUDA_CHECK(cudaGetLastError());
}
