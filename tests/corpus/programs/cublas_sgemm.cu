// C = alpha * A * B + beta * C with cuBLAS (column-major), checked against a naive kernel.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cublas_v2.h>
#include <cuda_runtime.h>

#define CUDA_CHECK(x)                                                                        \
    do {                                                                                     \
        cudaError_t e_ = (x);                                                                \
        if (e_ != cudaSuccess) {                                                             \
            std::fprintf(stderr, "%s failed: %s\n", #x, cudaGetErrorString(e_));              \
            std::exit(1);                                                                    \
        }                                                                                    \
    } while (0)
#define CUBLAS_CHECK(x)                                                                      \
    do {                                                                                     \
        cublasStatus_t s_ = (x);                                                             \
        if (s_ != CUBLAS_STATUS_SUCCESS) {                                                   \
            std::fprintf(stderr, "%s failed: status %d\n", #x, static_cast<int>(s_));       \
            std::exit(1);                                                                    \
        }                                                                                    \
    } while (0)

__global__ void naive_gemm(int m, int n, int k, float alpha, const float* A, const float* B, float beta,
                           float* C)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < m && col < n) {
        float acc = 0.0f;
        for (int p = 0; p < k; ++p) acc += A[row + p * m] * B[p + col * k];
        C[row + col * m] = alpha * acc + beta * C[row + col * m];
    }
}

int main()
{
    const int m = 256, n = 128, k = 64;
    std::vector<float> A(m * k), B(k * n), C(m * n, 1.0f);
    for (int i = 0; i < m * k; ++i) A[i] = static_cast<float>(i % 13) * 0.1f;
    for (int i = 0; i < k * n; ++i) B[i] = static_cast<float>(i % 7) * 0.2f;

    float *dA, *dB, *dC, *dRef;
    CUDA_CHECK(cudaMalloc(&dA, A.size() * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dB, B.size() * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dC, C.size() * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dRef, C.size() * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(dA, A.data(), A.size() * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dB, B.data(), B.size() * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dC, C.data(), C.size() * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dRef, C.data(), C.size() * sizeof(float), cudaMemcpyHostToDevice));

    cublasHandle_t handle;
    cudaStream_t stream;
    CUBLAS_CHECK(cublasCreate(&handle));
    CUDA_CHECK(cudaStreamCreate(&stream));
    CUBLAS_CHECK(cublasSetStream(handle, stream));

    const float alpha = 1.5f, beta = 0.5f;
    CUBLAS_CHECK(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, dA, m, dB, k, &beta, dC, m));

    dim3 block(16, 16), grid((n + 15) / 16, (m + 15) / 16);
    naive_gemm<<<grid, block, 0, stream>>>(m, n, k, alpha, dA, dB, beta, dRef);
    CUDA_CHECK(cudaStreamSynchronize(stream));

    std::vector<float> got(m * n), ref(m * n);
    CUDA_CHECK(cudaMemcpy(got.data(), dC, got.size() * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(ref.data(), dRef, ref.size() * sizeof(float), cudaMemcpyDeviceToHost));
    float worst = 0.0f;
    for (int i = 0; i < m * n; ++i) worst = std::fmax(worst, std::fabs(got[i] - ref[i]));
    std::printf("max |cublas - naive| = %g\n", worst);

    CUBLAS_CHECK(cublasDestroy(handle));
    CUDA_CHECK(cudaStreamDestroy(stream));
    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dC);
    cudaFree(dRef);
    return worst > 1e-3f;
}
