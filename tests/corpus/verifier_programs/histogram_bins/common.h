#ifndef HISTOGRAM_COMMON_H
#define HISTOGRAM_COMMON_H

#include <cstdio>
#include <cstdlib>

#define NUM_BINS 64
#define BLOCK_SIZE 128

#define CHECK(call)                                                              \
  {                                                                              \
    const cudaError_t error = call;                                              \
    if (error != cudaSuccess) {                                                  \
      fprintf(stderr, "Error: %s:%d, code: %d, reason: %s\n", __FILE__, __LINE__, \
              error, cudaGetErrorString(error));                                 \
      exit(1);                                                                   \
    }                                                                            \
  }

void histogram_gpu(const unsigned char* d_data, int n, unsigned int* d_bins, int blocks);

#endif
