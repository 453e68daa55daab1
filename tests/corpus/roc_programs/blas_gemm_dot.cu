// Dense linear algebra with cuBLAS v2: a GEMM, an AXPY and dot products in both pointer modes,
// on a stream bound to the handle.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <cublas_v2.h>

#define BLAS_CHECK(call)                                                          \
    do {                                                                          \
        cublasStatus_t status_ = (call);                                          \
        if (status_ != CUBLAS_STATUS_SUCCESS) {                                   \
            std::fprintf(stderr, "%s:%d cuBLAS status %d\n", __FILE__, __LINE__, \
                         static_cast<int>(status_));                              \
            std::exit(1);                                                         \
        }                                                                         \
    } while (0)

int main() {
    const int n = 64;
    float *a, *b, *c, *dot_on_device;
    cudaMalloc(&a, n * n * sizeof(float));
    cudaMalloc(&b, n * n * sizeof(float));
    cudaMalloc(&c, n * n * sizeof(float));
    cudaMalloc(&dot_on_device, sizeof(float));
    cudaMemset(a, 0, n * n * sizeof(float));
    cudaMemset(b, 0, n * n * sizeof(float));

    cudaStream_t stream;
    cudaStreamCreate(&stream);
    cublasHandle_t handle;
    BLAS_CHECK(cublasCreate(&handle));
    BLAS_CHECK(cublasSetStream(handle, stream));

    const float alpha = 1.0f, beta = 0.0f;
    BLAS_CHECK(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_T, n, n, n, &alpha, a, n, b, n, &beta, c, n));
    BLAS_CHECK(cublasSaxpy(handle, n * n, &alpha, a, 1, c, 1));

    float dot_on_host = 0.0f;
    BLAS_CHECK(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_HOST));
    BLAS_CHECK(cublasSdot(handle, n, a, 1, b, 1, &dot_on_host));
    BLAS_CHECK(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_DEVICE));
    BLAS_CHECK(cublasSdot(handle, n, a, 1, b, 1, dot_on_device));
    int largest = 0;
    BLAS_CHECK(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_HOST));
    BLAS_CHECK(cublasIsamax(handle, n, c, 1, &largest));

    cudaStreamSynchronize(stream);
    std::printf("dot %f, largest at %d\n", dot_on_host, largest);
    BLAS_CHECK(cublasDestroy(handle));
    cudaStreamDestroy(stream);
    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
    cudaFree(dot_on_device);
    return 0;
}
