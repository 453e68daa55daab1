// Inclusive prefix sum: per-block Hillis-Steele scan in dynamic (extern) shared memory,
// then a second pass adds the block totals.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

__global__ void block_scan(const int* in, int* out, int* block_sums, int n)
{
    extern __shared__ int buffer[];  // 2 * blockDim.x ints, double-buffered
    int tid = threadIdx.x;
    int gid = blockIdx.x * blockDim.x + tid;
    int pout = 0, pin = 1;

    buffer[pout * blockDim.x + tid] = gid < n ? in[gid] : 0;
    __syncthreads();

    for (int offset = 1; offset < blockDim.x; offset <<= 1) {
        pout = 1 - pout;
        pin = 1 - pout;
        int v = buffer[pin * blockDim.x + tid];
        if (tid >= offset) v += buffer[pin * blockDim.x + tid - offset];
        buffer[pout * blockDim.x + tid] = v;
        __syncthreads();
    }

    if (gid < n) out[gid] = buffer[pout * blockDim.x + tid];
    if (tid == blockDim.x - 1) block_sums[blockIdx.x] = buffer[pout * blockDim.x + tid];
}

__global__ void add_block_offsets(int* data, const int* scanned_sums, int n)
{
    extern __shared__ int offset[];
    if (threadIdx.x == 0) offset[0] = blockIdx.x > 0 ? scanned_sums[blockIdx.x - 1] : 0;
    __syncthreads();
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    if (gid < n) data[gid] += offset[0];
}

int main()
{
    const int n = 100000;
    const int threads = 512;
    const int blocks = (n + threads - 1) / threads;  // fits one block for the second level
    std::vector<int> h(n);
    for (int i = 0; i < n; ++i) h[i] = (i % 7) - 3;

    int *d_in, *d_out, *d_sums, *d_sums_scanned, *d_dummy;
    cudaMalloc(&d_in, n * sizeof(int));
    cudaMalloc(&d_out, n * sizeof(int));
    cudaMalloc(&d_sums, blocks * sizeof(int));
    cudaMalloc(&d_sums_scanned, blocks * sizeof(int));
    cudaMalloc(&d_dummy, sizeof(int));
    cudaMemcpy(d_in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);

    size_t smem = 2 * threads * sizeof(int);
    block_scan<<<blocks, threads, smem>>>(d_in, d_out, d_sums, n);
    block_scan<<<1, threads, smem>>>(d_sums, d_sums_scanned, d_dummy, blocks);
    add_block_offsets<<<blocks, threads, sizeof(int)>>>(d_out, d_sums_scanned, n);

    std::vector<int> result(n);
    cudaMemcpy(result.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost);
    long long running = 0;
    int bad = 0;
    for (int i = 0; i < n; ++i) {
        running += h[i];
        if (result[i] != running) ++bad;
    }
    std::printf("scan of %d ints: %d errors\n", n, bad);
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFree(d_sums);
    cudaFree(d_sums_scanned);
    cudaFree(d_dummy);
    return bad != 0;
}
