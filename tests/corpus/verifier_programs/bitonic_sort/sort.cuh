#pragma once
#include <cuda_runtime.h>

constexpr int SORT_BLOCK = 256;  // threads per block; a block sorts 2*SORT_BLOCK keys in shared memory

// Sorts n keys ascending in place; n must be a power of two >= 2*SORT_BLOCK.
cudaError_t bitonic_sort(unsigned int* d_keys, int n);
