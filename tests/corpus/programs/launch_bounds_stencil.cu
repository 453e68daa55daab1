// 1-D 7-point stencil with a shared-memory halo, register-limited with __launch_bounds__,
// sized with the occupancy API and checked with cudaFuncGetAttributes.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define RADIUS 3
#define BLOCK 256

__global__ void __launch_bounds__(BLOCK, 4) stencil_1d(const float* in, float* out, int n)
{
    __shared__ float s[BLOCK + 2 * RADIUS];
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int l = threadIdx.x + RADIUS;
    s[l] = g < n ? in[g] : 0.0f;
    if (threadIdx.x < RADIUS) {
        s[l - RADIUS] = g >= RADIUS ? in[g - RADIUS] : 0.0f;
        s[l + BLOCK] = g + BLOCK < n ? in[g + BLOCK] : 0.0f;
    }
    __syncthreads();
    if (g < n) {
        float acc = 0.0f;
        #pragma unroll
        for (int o = -RADIUS; o <= RADIUS; ++o) acc += s[l + o];
        out[g] = acc / (2 * RADIUS + 1);
    }
}

__global__ void __launch_bounds__(1024) wide_copy(const float* in, float* out, int n)
{
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    if (g < n) out[g] = in[g];
}

int main()
{
    const int n = 1 << 20;
    std::vector<float> h(n, 1.0f);
    float *d_in, *d_out;
    cudaMalloc(&d_in, n * sizeof(float));
    cudaMalloc(&d_out, n * sizeof(float));
    cudaMemcpy(d_in, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);

    cudaFuncAttributes attr;
    cudaFuncGetAttributes(&attr, stencil_1d);
    int blocks_per_sm = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, stencil_1d, BLOCK, 0);
    int min_grid = 0, best_block = 0;
    cudaOccupancyMaxPotentialBlockSize(&min_grid, &best_block, wide_copy, 0, 0);
    cudaFuncSetCacheConfig(stencil_1d, cudaFuncCachePreferShared);

    stencil_1d<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(d_in, d_out, n);
    wide_copy<<<(n + best_block - 1) / best_block, best_block>>>(d_out, d_in, n);
    cudaMemcpy(h.data(), d_in, n * sizeof(float), cudaMemcpyDeviceToHost);
    std::printf("regs %d, smem %zu, %d blocks/SM, best block %d; out[100] = %f\n", attr.numRegs,
                attr.sharedSizeBytes, blocks_per_sm, best_block, h[100]);
    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}
