// Per-block statistics with CUB block primitives: BlockLoad, BlockReduce (sum and max) and
// BlockScan, all sharing one TempStorage union.
#include <cstdio>
#include <cub/cub.cuh>
#include <cuda_runtime.h>

constexpr int kThreads = 128;
constexpr int kItems = 4;

struct MaxOp {
    __device__ int operator()(int a, int b) const { return a > b ? a : b; }
};

__global__ void block_stats(const int* in, int* block_sum, int* block_max, int* exclusive_out)
{
    using Load = cub::BlockLoad<int, kThreads, kItems, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
    using Reduce = cub::BlockReduce<int, kThreads>;
    using Scan = cub::BlockScan<int, kThreads>;
    __shared__ union {
        typename Load::TempStorage load;
        typename Reduce::TempStorage reduce;
        typename Scan::TempStorage scan;
    } temp;

    int items[kItems];
    int offset = blockIdx.x * kThreads * kItems;
    Load(temp.load).Load(in + offset, items);
    __syncthreads();

    int sum = Reduce(temp.reduce).Sum(items);
    __syncthreads();
    int mx = Reduce(temp.reduce).Reduce(items, MaxOp());
    __syncthreads();
    Scan(temp.scan).ExclusiveSum(items, items);

    for (int k = 0; k < kItems; ++k) exclusive_out[offset + threadIdx.x * kItems + k] = items[k];
    if (threadIdx.x == 0) {
        block_sum[blockIdx.x] = sum;
        block_max[blockIdx.x] = mx;
    }
}

int main()
{
    const int blocks = 16;
    const int n = blocks * kThreads * kItems;
    int* h = new int[n];
    for (int i = 0; i < n; ++i) h[i] = (i * 31) % 97;

    int *d_in, *d_sum, *d_max, *d_scan;
    cudaMalloc(&d_in, n * sizeof(int));
    cudaMalloc(&d_sum, blocks * sizeof(int));
    cudaMalloc(&d_max, blocks * sizeof(int));
    cudaMalloc(&d_scan, n * sizeof(int));
    cudaMemcpy(d_in, h, n * sizeof(int), cudaMemcpyHostToDevice);

    block_stats<<<blocks, kThreads>>>(d_in, d_sum, d_max, d_scan);

    int sums[blocks], maxes[blocks];
    cudaMemcpy(sums, d_sum, sizeof(sums), cudaMemcpyDeviceToHost);
    cudaMemcpy(maxes, d_max, sizeof(maxes), cudaMemcpyDeviceToHost);
    int expect0 = 0;
    for (int i = 0; i < kThreads * kItems; ++i) expect0 += h[i];
    std::printf("block 0: sum %d (expect %d), max %d\n", sums[0], expect0, maxes[0]);

    cudaFree(d_in);
    cudaFree(d_sum);
    cudaFree(d_max);
    cudaFree(d_scan);
    delete[] h;
    return sums[0] != expect0;
}
