// Shared declarations of the grid_norm example: a status-checking macro and the kernels' launchers.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                                     \
  do {                                                                                  \
    cudaError_t status_ = (call);                                                       \
    if (status_ != cudaSuccess) {                                                       \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(status_)); \
      std::exit(1);                                                                     \
    }                                                                                   \
  } while (0)

#define NORM_THREADS 256
#define NORM_TILE 32

// Per block: the sum of v*3 + (its right neighbour in the tile) and how many values are odd.
void block_stats(const int* d_x, int n, long long* d_sums, int* d_odd, int blocks);
// How many blocks of center_cooperative's kernel the device holds at once.
int cooperative_blocks_that_fit();
// One cooperative kernel: every block's partial sum, a grid barrier, then every element minus the
// grid-wide mean (integer). Returns the launch status (too large a grid is an error, not a stop).
cudaError_t center_cooperative(const int* d_x, int n, long long* d_partials, int* d_out, int blocks);
