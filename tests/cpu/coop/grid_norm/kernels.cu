// Kernels of the grid_norm example: tile reductions, and a two-phase kernel with a grid barrier.
#include <cooperative_groups.h>

#include "norm.cuh"

namespace cg = cooperative_groups;

template <typename Tile>
__device__ long long tile_sum(Tile tile, long long v)
{
    for (int offset = tile.size() / 2; offset > 0; offset /= 2) v += tile.shfl_down(v, offset);
    return v;
}

__global__ void block_stats_kernel(const int* x, int n, long long* sums, int* odd)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<NORM_TILE> tile = cg::tiled_partition<NORM_TILE>(block);
    __shared__ int stage[NORM_THREADS];
    __shared__ long long tile_sums[NORM_THREADS / NORM_TILE];
    __shared__ int tile_odd[NORM_THREADS / NORM_TILE];

    const int i = block.group_index().x * block.size() + block.thread_rank();
    const int v = i < n ? x[i] : 0;
    stage[block.thread_rank()] = v;
    tile.sync();
    const int right = stage[tile.meta_group_rank() * NORM_TILE + (tile.thread_rank() + 1) % NORM_TILE];

    long long s = tile_sum(tile, 3LL * v + right);
    const long long odd_lanes = tile_sum(tile, v & 1);
    if (tile.thread_rank() == 0) {
        tile_sums[tile.meta_group_rank()] = s;
        tile_odd[tile.meta_group_rank()] = static_cast<int>(odd_lanes);
    }
    block.sync();

    if (tile.meta_group_rank() == 0) {
        const bool has = tile.thread_rank() < tile.meta_group_size();
        s = tile_sum(tile, has ? tile_sums[tile.thread_rank()] : 0);
        const long long count = tile_sum(tile, has ? tile_odd[tile.thread_rank()] : 0);
        if (tile.thread_rank() == 0) {
            sums[blockIdx.x] = s;
            odd[blockIdx.x] = static_cast<int>(count);
        }
    }
}

__global__ void center_kernel(const int* x, int n, long long* partials, int* out)
{
    cg::grid_group grid = cg::this_grid();
    cg::thread_block block = cg::this_thread_block();
    cg::thread_group quad = cg::tiled_partition(block, 4);
    __shared__ long long warp_sums[NORM_THREADS / NORM_TILE];
    cg::thread_block_tile<NORM_TILE> tile = cg::tiled_partition<NORM_TILE>(block);

    long long v = 0;
    for (unsigned long long i = grid.thread_rank(); i < static_cast<unsigned long long>(n); i += grid.size()) v += x[i];
    quad.sync();
    v = tile_sum(tile, v);
    if (tile.thread_rank() == 0) warp_sums[tile.meta_group_rank()] = v;
    block.sync();
    if (block.thread_rank() == 0) {
        long long total = 0;
        for (unsigned w = 0; w < tile.meta_group_size(); ++w) total += warp_sums[w];
        partials[blockIdx.x] = total;
    }

    grid.sync();

    long long sum = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) sum += partials[b];
    const int mean = static_cast<int>(sum / n);
    for (unsigned long long i = grid.thread_rank(); i < static_cast<unsigned long long>(n); i += grid.size())
        out[i] = x[i] - mean;
}

void block_stats(const int* d_x, int n, long long* d_sums, int* d_odd, int blocks)
{
    block_stats_kernel<<<blocks, NORM_THREADS>>>(d_x, n, d_sums, d_odd);
    CHECK(cudaGetLastError());
}

int cooperative_blocks_that_fit()
{
    int per_sm = 0, sms = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, center_kernel, NORM_THREADS, 0));
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    return per_sm * sms;
}

cudaError_t center_cooperative(const int* d_x, int n, long long* d_partials, int* d_out, int blocks)
{
    void* args[] = {&d_x, &n, &d_partials, &d_out};
    return cudaLaunchCooperativeKernel((void*)center_kernel, dim3(blocks), dim3(NORM_THREADS), args, 0, 0);
}
