// Older CUDA code in the pre-C++17 style: `register` locals (nvcc accepts them, clang in
// C++17 rejects them), C-style casts and a hand-unrolled loop.
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

__global__ void saxpy_legacy(int n, float a, const float* x, float* y)
{
    register int i = blockIdx.x * blockDim.x + threadIdx.x;
    register int stride = blockDim.x * gridDim.x;
    for (; i + 3 * stride < n; i += 4 * stride) {
        register float x0 = x[i], x1 = x[i + stride], x2 = x[i + 2 * stride], x3 = x[i + 3 * stride];
        y[i] = a * x0 + y[i];
        y[i + stride] = a * x1 + y[i + stride];
        y[i + 2 * stride] = a * x2 + y[i + 2 * stride];
        y[i + 3 * stride] = a * x3 + y[i + 3 * stride];
    }
    for (; i < n; i += stride) y[i] = a * x[i] + y[i];
}

__device__ unsigned int hash32(unsigned int v)
{
    register unsigned int h = v;
    h ^= h >> 16;
    h *= 0x7feb352dU;
    h ^= h >> 15;
    h *= 0x846ca68bU;
    h ^= h >> 16;
    return h;
}

__global__ void fill_hash(unsigned int* out, int n)
{
    register const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < n) out[tid] = hash32((unsigned int)tid);
}

int main(void)
{
    int n = 100000;
    float *x, *y;
    unsigned int* hashes;
    cudaMalloc((void**)&x, n * sizeof(float));
    cudaMalloc((void**)&y, n * sizeof(float));
    cudaMalloc((void**)&hashes, n * sizeof(unsigned int));
    float* hx = (float*)malloc(n * sizeof(float));
    register int i;
    for (i = 0; i < n; i++) hx[i] = (float)i;
    cudaMemcpy(x, hx, n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemset(y, 0, n * sizeof(float));
    saxpy_legacy<<<64, 128>>>(n, 2.0f, x, y);
    fill_hash<<<(n + 127) / 128, 128>>>(hashes, n);
    cudaMemcpy(hx, y, n * sizeof(float), cudaMemcpyDeviceToHost);
    printf("y[99999] = %.1f\n", hx[99999]);
    free(hx);
    cudaFree(x);
    cudaFree(y);
    cudaFree(hashes);
    return 0;
}
