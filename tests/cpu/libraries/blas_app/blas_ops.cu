#include "blas_ops.cuh"

void project(cublasHandle_t h, const Problem& p, const float* A, const float* B, float* C)
{
    const float one = 1.0f, zero = 0.0f;
    CHECK_CUBLAS(cublasSgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, p.m, p.n, p.k, &one, A, p.k, B, p.k, &zero, C, p.m));
}

void project_batched(cublasHandle_t h, const Problem& p, const double* A, const double* B, double* C)
{
    const double alpha = 0.5, beta = 0.0;
    CHECK_CUBLAS(cublasDgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, p.m, p.n, p.k, &alpha, A, p.m,
                                           (long long)p.m * p.k, B, p.k, (long long)p.k * p.n, &beta, C, p.m,
                                           (long long)p.m * p.n, p.batch));
}

__global__ void fill_scale(float* alpha_on_device, float alpha) { *alpha_on_device = alpha; }

void update(cublasHandle_t h, int n, float alpha, const float* x, float* y, float* dot_on_device)
{
    float* alpha_on_device;
    CHECK_CUDA(cudaMalloc(&alpha_on_device, sizeof(float)));
    fill_scale<<<1, 1>>>(alpha_on_device, alpha);
    CHECK_CUBLAS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE));
    CHECK_CUBLAS(cublasSaxpy(h, n, alpha_on_device, x, 1, y, 1));
    CHECK_CUBLAS(cublasSdot(h, n, x, 1, y, 1, dot_on_device));
    CHECK_CUBLAS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));
    CHECK_CUDA(cudaFree(alpha_on_device));
}
