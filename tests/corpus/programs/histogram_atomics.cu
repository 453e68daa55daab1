// 256-bin byte histogram: privatised per-block bins in shared memory, merged with global atomics.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define NUM_BINS 256

__global__ void histogram_smem(const unsigned char* data, size_t n, unsigned int* bins)
{
    __shared__ unsigned int local[NUM_BINS];
    for (int b = threadIdx.x; b < NUM_BINS; b += blockDim.x) local[b] = 0;
    __syncthreads();

    size_t stride = static_cast<size_t>(blockDim.x) * gridDim.x;
    for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        atomicAdd(&local[data[i]], 1u);
    }
    __syncthreads();

    for (int b = threadIdx.x; b < NUM_BINS; b += blockDim.x) {
        if (local[b]) atomicAdd(&bins[b], local[b]);
    }
}

__global__ void histogram_global(const unsigned char* data, size_t n, unsigned long long* bins)
{
    size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    if (i < n) atomicAdd(&bins[data[i]], 1ull);
}

int main()
{
    const size_t n = 10 * 1000 * 1000;
    unsigned char* h = static_cast<unsigned char*>(malloc(n));
    unsigned int expect[NUM_BINS];
    memset(expect, 0, sizeof(expect));
    unsigned int seed = 12345;
    for (size_t i = 0; i < n; ++i) {
        seed = seed * 1664525u + 1013904223u;
        h[i] = static_cast<unsigned char>(seed >> 24);
        ++expect[h[i]];
    }

    unsigned char* d_data;
    unsigned int* d_bins;
    unsigned long long* d_bins64;
    cudaMalloc(&d_data, n);
    cudaMalloc(&d_bins, NUM_BINS * sizeof(unsigned int));
    cudaMalloc(&d_bins64, NUM_BINS * sizeof(unsigned long long));
    cudaMemcpy(d_data, h, n, cudaMemcpyHostToDevice);
    cudaMemset(d_bins, 0, NUM_BINS * sizeof(unsigned int));
    cudaMemset(d_bins64, 0, NUM_BINS * sizeof(unsigned long long));

    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    histogram_smem<<<prop.multiProcessorCount * 8, 256>>>(d_data, n, d_bins);
    histogram_global<<<static_cast<unsigned>((n + 511) / 512), 512>>>(d_data, n, d_bins64);

    unsigned int got[NUM_BINS];
    cudaMemcpy(got, d_bins, sizeof(got), cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int b = 0; b < NUM_BINS; ++b) bad += got[b] != expect[b];
    printf("histogram: %d bad bins\n", bad);

    cudaFree(d_data);
    cudaFree(d_bins);
    cudaFree(d_bins64);
    free(h);
    return bad != 0;
}
