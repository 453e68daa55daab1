#pragma once
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <cusparse.h>

#define CUDA_CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); std::exit(1); } } while (0)
#define CUSPARSE_CHECK(call) do { cusparseStatus_t s_ = (call); if (s_ != CUSPARSE_STATUS_SUCCESS) { \
  std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cusparseGetErrorString(s_)); std::exit(1); } } while (0)

#define RHS_COLUMNS 3

struct Csr {
  int rows, nnz;
  int *offsets, *columns;
  float* values;
};

// The 5-point Laplacian of an nx x ny grid, built on the device.
Csr build_laplacian(int nx, int ny, cudaStream_t stream);
void free_csr(Csr& a);
