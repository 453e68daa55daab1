// Kernels of cub_stats: a gather, and per-block / per-warp sums with CUB's collectives.
#include <cub/block/block_reduce.cuh>
#include <cub/warp/warp_reduce.cuh>

#include "stats.cuh"

__global__ void gather_kernel(const int* weights, const int* perm, int* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = weights[perm[i]];
}

__global__ void reduce_blocks(const int* weights, int n, int* block_sums, int* warp_sums)
{
    using BlockReduceT = cub::BlockReduce<int, kBlockThreads>;
    using WarpReduceT = cub::WarpReduce<int, kWarpThreads>;
    __shared__ typename BlockReduceT::TempStorage block_temp;
    __shared__ typename WarpReduceT::TempStorage warp_temp[kWarpsPerBlock];

    const int first = blockIdx.x * kBlockThreads;
    const int i = first + threadIdx.x;
    const int valid = n - first < kBlockThreads ? n - first : kBlockThreads;
    const int x = i < n ? weights[i] : 0;

    const int warp = threadIdx.x / kWarpThreads;
    const int warp_sum = WarpReduceT(warp_temp[warp]).Sum(x);
    if (threadIdx.x % kWarpThreads == 0) warp_sums[blockIdx.x * kWarpsPerBlock + warp] = warp_sum;

    const int block_sum = BlockReduceT(block_temp).Sum(x, valid);
    if (threadIdx.x == 0) block_sums[blockIdx.x] = block_sum;
}

void gather_weights(const int* d_weights, const int* d_perm, int* d_out, int n)
{
    gather_kernel<<<blocks_for(n), kBlockThreads>>>(d_weights, d_perm, d_out, n);
    CHECK(cudaGetLastError());
}

void block_sums(const int* d_weights, int n, int* d_block_sums, int* d_warp_sums)
{
    reduce_blocks<<<blocks_for(n), kBlockThreads>>>(d_weights, n, d_block_sums, d_warp_sums);
    CHECK(cudaGetLastError());
}
