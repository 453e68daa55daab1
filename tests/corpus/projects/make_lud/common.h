#pragma once
#include <cstdio>
#include <cstdlib>

#define LUD_BLOCK 16

#define LUD_CHECK(call)                                                          \
  do {                                                                           \
    cudaError_t err_ = (call);                                                   \
    if (err_ != cudaSuccess) {                                                   \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
      std::exit(1);                                                              \
    }                                                                            \
  } while (0)
