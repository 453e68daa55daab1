// Conjugate-gradient building blocks with cuBLAS level-1/2 calls on a small SPD system.
#include <cstdio>
#include <vector>
#include <cublas_v2.h>
#include <cuda_runtime.h>

static const char* status_name(cublasStatus_t s)
{
    switch (s) {
    case CUBLAS_STATUS_SUCCESS: return "success";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "not initialized";
    case CUBLAS_STATUS_ALLOC_FAILED: return "alloc failed";
    case CUBLAS_STATUS_INVALID_VALUE: return "invalid value";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "execution failed";
    default: return "other error";
    }
}

#define BLAS(call)                                                            \
    if (cublasStatus_t st = (call); st != CUBLAS_STATUS_SUCCESS) {            \
        std::printf("line %d: %s -> %s\n", __LINE__, #call, status_name(st)); \
        return 1;                                                             \
    }

int main()
{
    const int n = 64;
    std::vector<float> A(n * n, 0.0f), b(n, 1.0f);
    for (int i = 0; i < n; ++i) {
        A[i + i * n] = 4.0f;
        if (i > 0) A[i + (i - 1) * n] = -1.0f;
        if (i + 1 < n) A[i + (i + 1) * n] = -1.0f;
    }

    float *dA, *dx, *dr, *dp, *dAp;
    cudaMalloc(&dA, n * n * sizeof(float));
    cudaMalloc(&dx, n * sizeof(float));
    cudaMalloc(&dr, n * sizeof(float));
    cudaMalloc(&dp, n * sizeof(float));
    cudaMalloc(&dAp, n * sizeof(float));

    cublasHandle_t h;
    BLAS(cublasCreate(&h));
    BLAS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));
    BLAS(cublasSetMatrix(n, n, sizeof(float), A.data(), n, dA, n));
    BLAS(cublasSetVector(n, sizeof(float), b.data(), 1, dr, 1));
    BLAS(cublasScopy(h, n, dr, 1, dp, 1));
    cudaMemset(dx, 0, n * sizeof(float));

    float rr = 0.0f;
    BLAS(cublasSdot(h, n, dr, 1, dr, 1, &rr));
    const float one = 1.0f, zero = 0.0f;
    int it = 0;
    for (; it < 100 && rr > 1e-10f; ++it) {
        BLAS(cublasSgemv(h, CUBLAS_OP_N, n, n, &one, dA, n, dp, 1, &zero, dAp, 1));
        float pAp = 0.0f;
        BLAS(cublasSdot(h, n, dp, 1, dAp, 1, &pAp));
        float alpha = rr / pAp, neg_alpha = -alpha;
        BLAS(cublasSaxpy(h, n, &alpha, dp, 1, dx, 1));
        BLAS(cublasSaxpy(h, n, &neg_alpha, dAp, 1, dr, 1));
        float rr_new = 0.0f;
        BLAS(cublasSdot(h, n, dr, 1, dr, 1, &rr_new));
        float beta = rr_new / rr;
        BLAS(cublasSscal(h, n, &beta, dp, 1));
        BLAS(cublasSaxpy(h, n, &one, dr, 1, dp, 1));
        rr = rr_new;
    }
    float norm = 0.0f;
    int imax = 0;
    BLAS(cublasSnrm2(h, n, dx, 1, &norm));
    BLAS(cublasIsamax(h, n, dx, 1, &imax));
    std::vector<float> x(n);
    BLAS(cublasGetVector(n, sizeof(float), dx, 1, x.data(), 1));
    std::printf("CG: %d iterations, |x| = %f, argmax %d, x0 = %f\n", it, norm, imax, x[0]);

    BLAS(cublasDestroy(h));
    cudaFree(dA);
    cudaFree(dx);
    cudaFree(dr);
    cudaFree(dp);
    cudaFree(dAp);
    return 0;
}
