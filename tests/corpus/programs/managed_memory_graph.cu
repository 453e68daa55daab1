// Breadth-first search over a CSR graph kept in managed (unified) memory: host builds it,
// kernels expand the frontier, the host reads levels back without explicit copies.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void expand_frontier(const int* row_ptr, const int* cols, int* level, int current, int n,
                                int* changed)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n || level[v] != current) return;
    for (int e = row_ptr[v]; e < row_ptr[v + 1]; ++e) {
        int u = cols[e];
        if (atomicCAS(&level[u], -1, current + 1) == -1) *changed = 1;
    }
}

int main()
{
    const int side = 64, n = side * side;
    int *row_ptr, *cols, *level, *changed;
    cudaMallocManaged(&row_ptr, (n + 1) * sizeof(int));
    cudaMallocManaged(&cols, 4 * n * sizeof(int));
    cudaMallocManaged(&level, n * sizeof(int));
    cudaMallocManaged(&changed, sizeof(int), cudaMemAttachGlobal);

    int e = 0;
    for (int y = 0; y < side; ++y) {
        for (int x = 0; x < side; ++x) {
            int v = y * side + x;
            row_ptr[v] = e;
            if (x > 0) cols[e++] = v - 1;
            if (x + 1 < side) cols[e++] = v + 1;
            if (y > 0) cols[e++] = v - side;
            if (y + 1 < side) cols[e++] = v + side;
            level[v] = -1;
        }
    }
    row_ptr[n] = e;
    level[0] = 0;

    cudaStream_t stream;
    cudaStreamCreate(&stream);
    cudaStreamAttachMemAsync(stream, level, 0, cudaMemAttachSingle);
    int depth = 0;
    do {
        *changed = 0;
        expand_frontier<<<(n + 127) / 128, 128, 0, stream>>>(row_ptr, cols, level, depth, n, changed);
        cudaStreamSynchronize(stream);
        ++depth;
    } while (*changed);

    int managed = 0;
    cudaDeviceGetAttribute(&managed, cudaDevAttrConcurrentManagedAccess, 0);
    std::printf("BFS depth %d, far corner level %d (expect %d), concurrent managed %d\n", depth,
                level[n - 1], 2 * (side - 1), managed);
    cudaStreamDestroy(stream);
    cudaFree(row_ptr);
    cudaFree(cols);
    cudaFree(level);
    cudaFree(changed);
    return level[n - 1] != 2 * (side - 1);
}
