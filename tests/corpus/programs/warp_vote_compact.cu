// Stream compaction with warp votes: each warp counts its survivors with __ballot_sync and
// __popc, reserves space with one atomic, and writes its survivors in order.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void compact_positive(const int* in, int* out, int* out_count, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned active = __activemask();
    int lane = threadIdx.x & 31;
    bool keep = i < n && in[i] > 0;

    unsigned votes = __ballot_sync(active, keep);
    int warp_total = __popc(votes);
    int rank = __popc(votes & ((1u << lane) - 1));

    int base = 0;
    int leader = __ffs(active) - 1;
    if (lane == leader && warp_total > 0) base = atomicAdd(out_count, warp_total);
    base = __shfl_sync(active, base, leader);
    if (keep) out[base + rank] = in[i];
    __syncwarp(active);
}

__global__ void classify(const int* in, int* flags, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    // Whole-warp predicates decide the per-warp fast path.
    if (__all_sync(0xffffffffu, v > 0)) {
        if ((threadIdx.x & 31) == 0) flags[i / 32] = 2;
    } else if (__any_sync(0xffffffffu, v > 0)) {
        if ((threadIdx.x & 31) == 0) flags[i / 32] = 1;
    } else if ((threadIdx.x & 31) == 0) {
        flags[i / 32] = 0;
    }
}

int main()
{
    const int n = 1 << 16;
    int* h = static_cast<int*>(std::malloc(n * sizeof(int)));
    int positives = 0;
    for (int i = 0; i < n; ++i) {
        h[i] = (i * 37 % 11) - 5;
        positives += h[i] > 0;
    }
    int *d_in, *d_out, *d_count, *d_flags;
    cudaMalloc(&d_in, n * sizeof(int));
    cudaMalloc(&d_out, n * sizeof(int));
    cudaMalloc(&d_count, sizeof(int));
    cudaMalloc(&d_flags, (n / 32) * sizeof(int));
    cudaMemcpy(d_in, h, n * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemset(d_count, 0, sizeof(int));

    compact_positive<<<n / 256, 256>>>(d_in, d_out, d_count, n);
    classify<<<n / 256, 256>>>(d_in, d_flags, n);
    int count = 0;
    cudaMemcpy(&count, d_count, sizeof(int), cudaMemcpyDeviceToHost);
    std::printf("kept %d of %d (expected %d)\n", count, n, positives);

    cudaFree(d_in);
    cudaFree(d_out);
    cudaFree(d_count);
    cudaFree(d_flags);
    std::free(h);
    return count != positives;
}
