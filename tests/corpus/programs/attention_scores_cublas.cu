// Scaled dot-product attention for one head: cuBLAS computes Q K^T, a kernel applies a
// row softmax with warp shuffles and a shared-memory block reduction, cuBLAS multiplies by V.
#include <cfloat>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cublas_v2.h>
#include <cuda_runtime.h>

#define CUDA_OK(x)                                                                  \
    do {                                                                            \
        cudaError_t e = (x);                                                        \
        if (e != cudaSuccess) {                                                     \
            fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e));                 \
            exit(1);                                                                \
        }                                                                           \
    } while (0)
#define CUBLAS_OK(x)                                                                \
    do {                                                                            \
        if ((x) != CUBLAS_STATUS_SUCCESS) {                                         \
            fprintf(stderr, "%s failed\n", #x);                                     \
            exit(1);                                                                \
        }                                                                           \
    } while (0)

__device__ float warp_max(float v)
{
    for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, o));
    return v;
}

__device__ float warp_sum(float v)
{
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);
    return v;
}

// One block per row of the (column-major) score matrix; blockDim.x is a multiple of 32.
__global__ void softmax_columns(float* scores, int seq, float scale)
{
    __shared__ float red[32];
    float* col = scores + blockIdx.x * seq;
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;

    float m = -FLT_MAX;
    for (int i = threadIdx.x; i < seq; i += blockDim.x) m = fmaxf(m, col[i] * scale);
    m = warp_max(m);
    if (lane == 0) red[warp] = m;
    __syncthreads();
    m = warp_max(lane < warps ? red[lane] : -FLT_MAX);
    __syncthreads();

    float s = 0.0f;
    for (int i = threadIdx.x; i < seq; i += blockDim.x) {
        float e = __expf(col[i] * scale - m);
        col[i] = e;
        s += e;
    }
    s = warp_sum(s);
    if (lane == 0) red[warp] = s;
    __syncthreads();
    s = warp_sum(lane < warps ? red[lane] : 0.0f);
    for (int i = threadIdx.x; i < seq; i += blockDim.x) col[i] /= s;
}

int main()
{
    const int seq = 128, dim = 64;
    std::vector<float> hQ(seq * dim), hK(seq * dim), hV(seq * dim);
    for (int i = 0; i < seq * dim; ++i) {
        hQ[i] = 0.01f * (i % 17);
        hK[i] = 0.02f * (i % 13);
        hV[i] = 1.0f;
    }
    float *Q, *K, *V, *S, *O;
    CUDA_OK(cudaMalloc(&Q, seq * dim * sizeof(float)));
    CUDA_OK(cudaMalloc(&K, seq * dim * sizeof(float)));
    CUDA_OK(cudaMalloc(&V, seq * dim * sizeof(float)));
    CUDA_OK(cudaMalloc(&S, seq * seq * sizeof(float)));
    CUDA_OK(cudaMalloc(&O, seq * dim * sizeof(float)));
    CUDA_OK(cudaMemcpy(Q, hQ.data(), seq * dim * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(K, hK.data(), seq * dim * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(V, hV.data(), seq * dim * sizeof(float), cudaMemcpyHostToDevice));

    cublasHandle_t blas;
    CUBLAS_OK(cublasCreate(&blas));
    const float one = 1.0f, zero = 0.0f;
    // S (seq x seq) = K * Q^T with Q, K stored column-major as (seq x dim).
    CUBLAS_OK(cublasSgemm(blas, CUBLAS_OP_N, CUBLAS_OP_T, seq, seq, dim, &one, K, seq, Q, seq, &zero, S, seq));
    softmax_columns<<<seq, 128>>>(S, seq, 1.0f / sqrtf(static_cast<float>(dim)));
    CUDA_OK(cudaGetLastError());
    // O (seq x dim) = S^T * V.
    CUBLAS_OK(cublasSgemm(blas, CUBLAS_OP_T, CUBLAS_OP_N, seq, dim, seq, &one, S, seq, V, seq, &zero, O, seq));

    std::vector<float> hO(seq * dim);
    CUDA_OK(cudaMemcpy(hO.data(), O, seq * dim * sizeof(float), cudaMemcpyDeviceToHost));
    printf("O[0] = %f (rows of softmax sum to 1, V is all ones: expect 1)\n", hO[0]);
    CUBLAS_OK(cublasDestroy(blas));
    cudaFree(Q);
    cudaFree(K);
    cudaFree(V);
    cudaFree(S);
    cudaFree(O);
    return 0;
}
