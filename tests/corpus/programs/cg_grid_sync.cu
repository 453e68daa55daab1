// One-kernel two-phase reduction with a grid-wide barrier (cooperative launch).
#include <cstdio>
#include <cooperative_groups.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

__global__ void grid_reduce(const float* in, float* block_partials, float* out, int n)
{
    cg::grid_group grid = cg::this_grid();
    cg::thread_block block = cg::this_thread_block();
    extern __shared__ float smem[];

    float v = 0.0f;
    for (unsigned long long i = grid.thread_rank(); i < n; i += grid.size()) v += in[i];
    smem[block.thread_rank()] = v;
    block.sync();
    for (unsigned s = block.size() / 2; s > 0; s >>= 1) {
        if (block.thread_rank() < s) smem[block.thread_rank()] += smem[block.thread_rank() + s];
        block.sync();
    }
    if (block.thread_rank() == 0) block_partials[blockIdx.x] = smem[0];

    grid.sync();

    if (grid.thread_rank() == 0) {
        float total = 0.0f;
        for (unsigned b = 0; b < gridDim.x; ++b) total += block_partials[b];
        *out = total;
    }
}

int main()
{
    int supports = 0;
    cudaDeviceGetAttribute(&supports, cudaDevAttrCooperativeLaunch, 0);
    if (!supports) {
        printf("cooperative launch unsupported\n");
        return 0;
    }
    const int n = 1 << 20, threads = 256;
    int blocks_per_sm = 0, sms = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, grid_reduce, threads,
                                                  threads * sizeof(float));
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    int blocks = blocks_per_sm * sms;

    float *d_in, *d_partials, *d_out;
    cudaMalloc(&d_in, n * sizeof(float));
    cudaMalloc(&d_partials, blocks * sizeof(float));
    cudaMalloc(&d_out, sizeof(float));
    float* h = new float[n];
    for (int i = 0; i < n; ++i) h[i] = 0.25f;
    cudaMemcpy(d_in, h, n * sizeof(float), cudaMemcpyHostToDevice);

    int count = n;
    void* args[] = {&d_in, &d_partials, &d_out, &count};
    cudaError_t err = cudaLaunchCooperativeKernel((void*)grid_reduce, dim3(blocks), dim3(threads), args,
                                                  threads * sizeof(float), 0);
    float result = 0.0f;
    cudaMemcpy(&result, d_out, sizeof(float), cudaMemcpyDeviceToHost);
    printf("launch: %s, sum = %f (expect %f)\n", cudaGetErrorString(err), result, 0.25f * n);
    cudaFree(d_in);
    cudaFree(d_partials);
    cudaFree(d_out);
    delete[] h;
    return 0;
}
