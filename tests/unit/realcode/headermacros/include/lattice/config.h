// Portability macros of the lattice library: what each compiler needs, spelled once.
#pragma once

#include <cstdio>
#include <cstdlib>

#if defined(__CUDACC__)
#define LATTICE_HOST_DEVICE __host__ __device__
#define LATTICE_DEVICE __device__
#define LATTICE_INLINE __forceinline__
#define LATTICE_GRID_CONSTANT __grid_constant__
#else
#define LATTICE_HOST_DEVICE
#define LATTICE_DEVICE
#define LATTICE_INLINE inline
#define LATTICE_GRID_CONSTANT
#endif

#define LATTICE_RESTRICT __restrict__
#define LATTICE_EXTERN_C extern "C"

#define LATTICE_DO_PRAGMA(x) _Pragma(#x)
#define LATTICE_UNROLL(n) LATTICE_DO_PRAGMA(unroll n)
#define LATTICE_UNROLL_ALL LATTICE_DO_PRAGMA(unroll)
#define LATTICE_NO_UNROLL LATTICE_UNROLL(1)

// A block, so that a use reads as a statement with or without its semicolon.
#define LATTICE_CHECK(call)                                                             \
  {                                                                                     \
    cudaError_t lattice_err_ = (call);                                                  \
    if (lattice_err_ != cudaSuccess) {                                                  \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(lattice_err_)); \
      std::abort();                                                                     \
    }                                                                                   \
  }
