// Sum reduction: shuffle-down inside each warp, one partial per warp in shared memory,
// the first warp reduces the partials. Written for 32-lane warps, as most CUDA code is.
#include <cstdio>
#include <cuda_runtime.h>

#define FULL_MASK 0xffffffff

__inline__ __device__ float warp_sum(float v)
{
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(FULL_MASK, v, offset);
    return v;
}

__global__ void reduce_sum(const float* __restrict__ in, float* out, int n)
{
    __shared__ float partial[32];
    int lane = threadIdx.x % 32;
    int warp = threadIdx.x / 32;

    float v = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) v += in[i];
    v = warp_sum(v);
    if (lane == 0) partial[warp] = v;
    __syncthreads();

    int warps = blockDim.x / 32;
    v = threadIdx.x < warps ? partial[lane] : 0.0f;
    if (warp == 0) {
        v = warp_sum(v);
        if (lane == 0) atomicAdd(out, v);
    }
}

int main()
{
    const int n = 1 << 24;
    float* h = new float[n];
    for (int i = 0; i < n; ++i) h[i] = 1.0f / (1 + (i & 1023));
    double expect = 0;
    for (int i = 0; i < n; ++i) expect += h[i];

    float *d_in, *d_out;
    cudaMalloc(&d_in, n * sizeof(float));
    cudaMalloc(&d_out, sizeof(float));
    cudaMemcpy(d_in, h, n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemset(d_out, 0, sizeof(float));

    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    reduce_sum<<<sms * 4, 1024>>>(d_in, d_out, n);

    float got = 0;
    cudaMemcpy(&got, d_out, sizeof(float), cudaMemcpyDeviceToHost);
    std::printf("sum %f expected %f\n", got, expect);
    cudaFree(d_in);
    cudaFree(d_out);
    delete[] h;
    return 0;
}
