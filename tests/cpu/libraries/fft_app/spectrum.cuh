// Spectral filtering of a batch of signals: the cuFFT plans and their status checks.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <cufft.h>

#define CHECK_CUDA(call)                                                                    \
    do {                                                                                    \
        cudaError_t err_ = (call);                                                          \
        if (err_ != cudaSuccess) {                                                          \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_));   \
            exit(2);                                                                        \
        }                                                                                   \
    } while (0)
#define CHECK_CUFFT(call)                                                                   \
    do {                                                                                    \
        cufftResult r_ = (call);                                                            \
        if (r_ != CUFFT_SUCCESS) {                                                          \
            fprintf(stderr, "%s:%d: cuFFT error %d\n", __FILE__, __LINE__, (int)r_);        \
            exit(3);                                                                        \
        }                                                                                   \
    } while (0)

// Forward real transform of `batch` signals of length n, then back: out = n * in (unnormalized).
void round_trip(int n, int batch, cudaStream_t stream, const float* in, cufftComplex* spectrum, float* out);
// Forward complex transform of `batch` signals of length n with PlanMany's basic layout.
void complex_forward(int n, int batch, cudaStream_t stream, cufftComplex* data, cufftComplex* out);
