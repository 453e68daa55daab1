// Monte Carlo estimates with cuRAND: shared declarations and the status checks of both APIs.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <curand.h>
#include <curand_kernel.h>

#define CUDA_CHECK(call)                                                                   \
    do {                                                                                   \
        cudaError_t err_ = (call);                                                         \
        if (err_ != cudaSuccess) {                                                         \
            std::fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(err_),     \
                         __FILE__, __LINE__);                                              \
            std::exit(EXIT_FAILURE);                                                       \
        }                                                                                  \
    } while (0)

#define CURAND_CHECK(call)                                                                 \
    do {                                                                                   \
        curandStatus_t st_ = (call);                                                       \
        if (st_ != CURAND_STATUS_SUCCESS) {                                                \
            std::fprintf(stderr, "cuRAND error %d at %s:%d\n", static_cast<int>(st_),      \
                         __FILE__, __LINE__);                                              \
            std::exit(EXIT_FAILURE);                                                       \
        }                                                                                  \
    } while (0)

constexpr int kBins = 16;          // normal histogram over [-4, 4), bins of 0.5
constexpr float kBinWidth = 0.5f;

struct RunShape {
    int blocks;
    int threads;
    int samples;  // per thread
};

// device API (mc_kernels.cu)
void estimate_pi_device(const RunShape& shape, unsigned long long seed, unsigned long long* hits);
void normal_histogram_device(const RunShape& shape, unsigned long long seed, unsigned int* bins);
