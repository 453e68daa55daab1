// The warp-sum step of cuda-samples' shfl_scan: only the first 8 lanes of warp 0 shuffle, with a
// mask naming exactly them. The rule translation's __shfl_up (HIP 5.2 has no _sync forms) takes no
// mask: on AMD hardware it runs with the lanes that are active, on the CPU runtime it waits for all.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void scan8(int* data) {
    __shared__ int sums[8];
    int lane = threadIdx.x % 32;
    if (threadIdx.x < 8) sums[threadIdx.x] = data[threadIdx.x];
    __syncthreads();
    if (threadIdx.x < 8) {
        int v = sums[lane];
        unsigned mask = (1u << 8) - 1;
        for (int i = 1; i <= 8; i *= 2) {
            int n = __shfl_up_sync(mask, v, i, 8);
            if (lane >= i) v += n;
        }
        sums[lane] = v;
    }
    __syncthreads();
    if (threadIdx.x < 8) data[threadIdx.x] = sums[threadIdx.x];
}

int main() {
    int host[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    int* dev;
    cudaMalloc(&dev, sizeof host);
    cudaMemcpy(dev, host, sizeof host, cudaMemcpyHostToDevice);
    scan8<<<1, 64>>>(dev);
    cudaMemcpy(host, dev, sizeof host, cudaMemcpyDeviceToHost);
    for (int i = 0; i < 8; ++i) printf("%d\n", host[i]);
    return 0;
}
