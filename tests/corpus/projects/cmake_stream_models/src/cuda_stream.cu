#include "stream.h"
#include <cuda_runtime.h>

__global__ void triad_kernel(double* a, const double* b, const double* c, double scalar, std::size_t n) {
    std::size_t i = blockIdx.x * (std::size_t)blockDim.x + threadIdx.x;
    if (i < n) a[i] = b[i] + scalar * c[i];
}

void triad(double* a, const double* b, const double* c, double scalar, std::size_t n) {
    double *da, *db, *dc;
    cudaMalloc(&da, n * sizeof(double));
    cudaMalloc(&db, n * sizeof(double));
    cudaMalloc(&dc, n * sizeof(double));
    cudaMemcpy(db, b, n * sizeof(double), cudaMemcpyHostToDevice);
    cudaMemcpy(dc, c, n * sizeof(double), cudaMemcpyHostToDevice);
    triad_kernel<<<(n + 255) / 256, 256>>>(da, db, dc, scalar, n);
    cudaMemcpy(a, da, n * sizeof(double), cudaMemcpyDeviceToHost);
    cudaFree(da); cudaFree(db); cudaFree(dc);
}
