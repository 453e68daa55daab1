// Dense linear algebra of a small regression model: the cuBLAS calls, and their status checks.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cublas_v2.h>
#include <cuda_runtime.h>

#define CHECK_CUDA(call)                                                                    \
    do {                                                                                    \
        cudaError_t err_ = (call);                                                          \
        if (err_ != cudaSuccess) {                                                          \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_));   \
            exit(2);                                                                        \
        }                                                                                   \
    } while (0)
#define CHECK_CUBLAS(call)                                                                  \
    do {                                                                                    \
        cublasStatus_t st_ = (call);                                                        \
        if (st_ != CUBLAS_STATUS_SUCCESS) {                                                 \
            fprintf(stderr, "%s:%d: cuBLAS status %d\n", __FILE__, __LINE__, (int)st_);     \
            exit(3);                                                                        \
        }                                                                                   \
    } while (0)

struct Problem {
    int m, n, k, batch;
};

// C = A^T * B with A stored k x m (column-major), B k x n, C m x n.
void project(cublasHandle_t h, const Problem& p, const float* A, const float* B, float* C);
// C_i = A_i * B_i for each batch member, matrices packed one after another.
void project_batched(cublasHandle_t h, const Problem& p, const double* A, const double* B, double* C);
// y += alpha * x, then the dot product of x and y, written to a device scalar.
void update(cublasHandle_t h, int n, float alpha, const float* x, float* y, float* dot_on_device);
