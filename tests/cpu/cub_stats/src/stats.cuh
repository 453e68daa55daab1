#pragma once
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                                          \
    do {                                                                                     \
        cudaError_t status_ = (call);                                                        \
        if (status_ != cudaSuccess) {                                                        \
            std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,        \
                         cudaGetErrorString(status_));                                       \
            std::exit(1);                                                                    \
        }                                                                                    \
    } while (0)

constexpr int kBlockThreads = 256;
constexpr int kWarpThreads = 32;
constexpr int kWarpsPerBlock = kBlockThreads / kWarpThreads;

inline int blocks_for(int n) { return (n + kBlockThreads - 1) / kBlockThreads; }

// d_out[i] = d_weights[d_perm[i]]
void gather_weights(const int* d_weights, const int* d_perm, int* d_out, int n);
// one sum per block of kBlockThreads weights (BlockReduce) and one per warp (WarpReduce)
void block_sums(const int* d_weights, int n, int* d_block_sums, int* d_warp_sums);
