#pragma once

#define RADIX_THREADS 256
#define KEY_BITS 16

// Sorts each consecutive run of RADIX_THREADS keys independently (one block per run).
void block_radix_sort(unsigned short* d_keys, int n);
