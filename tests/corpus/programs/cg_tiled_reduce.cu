// Dot product with cooperative groups: thread_block, tiled_partition<32> and tile shuffles.
#include <cstdio>
#include <cooperative_groups.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

template <typename Group>
__device__ float tile_sum(Group tile, float v)
{
    for (int offset = tile.size() / 2; offset > 0; offset /= 2) v += tile.shfl_down(v, offset);
    return v;
}

__global__ void dot_product(const float* a, const float* b, float* result, int n)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    __shared__ float warp_sums[32];

    float v = 0.0f;
    for (int i = block.group_index().x * block.size() + block.thread_rank(); i < n;
         i += gridDim.x * block.size()) {
        v += a[i] * b[i];
    }
    v = tile_sum(warp, v);
    if (warp.thread_rank() == 0) warp_sums[warp.meta_group_rank()] = v;
    block.sync();

    if (warp.meta_group_rank() == 0) {
        v = warp.thread_rank() < warp.meta_group_size() ? warp_sums[warp.thread_rank()] : 0.0f;
        v = tile_sum(warp, v);
        if (warp.thread_rank() == 0) atomicAdd(result, v);
    }
}

__global__ void count_groups(int* counts)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_group quad = cg::tiled_partition(block, 4);
    if (quad.thread_rank() == 0) atomicAdd(&counts[0], 1);
    if (block.thread_rank() == 0) atomicAdd(&counts[1], static_cast<int>(block.size()));
    quad.sync();
}

int main()
{
    const int n = 1 << 20;
    float *a, *b, *result;
    int* counts;
    cudaMallocManaged(&a, n * sizeof(float));
    cudaMallocManaged(&b, n * sizeof(float));
    cudaMallocManaged(&result, sizeof(float));
    cudaMallocManaged(&counts, 2 * sizeof(int));
    for (int i = 0; i < n; ++i) {
        a[i] = 1.0f;
        b[i] = (i % 2) ? 0.5f : 1.5f;
    }
    *result = 0.0f;
    counts[0] = counts[1] = 0;

    dot_product<<<128, 256>>>(a, b, result, n);
    count_groups<<<4, 64>>>(counts);
    cudaDeviceSynchronize();
    printf("dot = %f (expect %f); quads %d threads %d\n", *result, 1.0f * n, counts[0], counts[1]);
    cudaFree(a);
    cudaFree(b);
    cudaFree(result);
    cudaFree(counts);
    return 0;
}
