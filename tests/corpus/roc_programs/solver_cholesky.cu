// A Cholesky factorisation with cuSOLVER: workspace query, potrf with a device info flag, and a
// cuBLAS triangular solve on the factor, each library with its own handle on one stream.
#include <cstdio>
#include <cuda_runtime.h>
#include <cublas_v2.h>
#include <cusolverDn.h>

int main() {
    const cusolver_int_t n = 32;
    float *a, *b, *workspace;
    int* info;
    cudaMalloc(&a, n * n * sizeof(float));
    cudaMalloc(&b, n * sizeof(float));
    cudaMalloc(&info, sizeof(int));

    cudaStream_t stream;
    cudaStreamCreate(&stream);
    cusolverDnHandle_t solver;
    cublasHandle_t blas;
    if (cusolverDnCreate(&solver) != CUSOLVER_STATUS_SUCCESS) return 1;
    cusolverDnSetStream(solver, stream);
    cublasCreate(&blas);
    cublasSetStream(blas, stream);

    int lwork = 0;
    cusolverDnSpotrf_bufferSize(solver, CUBLAS_FILL_MODE_LOWER, n, a, n, &lwork);
    cudaMalloc(&workspace, lwork * sizeof(float) + 1);
    cusolverStatus_t status = cusolverDnSpotrf(solver, CUBLAS_FILL_MODE_LOWER, n, a, n, workspace, lwork, info);
    const float one = 1.0f;
    cublasStrsm(blas, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, n, 1, &one, a, n,
                b, n);
    int host_info = 0;
    cudaMemcpy(&host_info, info, sizeof(int), cudaMemcpyDeviceToHost);
    std::printf("potrf status %d, info %d\n", static_cast<int>(status), host_info);

    cublasDestroy(blas);
    cusolverDnDestroy(solver);
    cudaStreamDestroy(stream);
    cudaFree(a);
    cudaFree(b);
    cudaFree(workspace);
    cudaFree(info);
    return 0;
}
