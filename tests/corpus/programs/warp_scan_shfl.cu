// Warp-level inclusive scan (__shfl_up_sync), butterfly all-reduce (__shfl_xor_sync) and
// broadcast (__shfl_sync), used to normalise each 32-element segment of a signal.
#include <cstdio>
#include <cuda_runtime.h>

constexpr unsigned kAllLanes = 0xFFFFFFFFu;
constexpr int kWarp = 32;

__device__ float warp_inclusive_scan(float v, int lane)
{
    #pragma unroll
    for (int d = 1; d < kWarp; d <<= 1) {
        float up = __shfl_up_sync(kAllLanes, v, d);
        if (lane >= d) v += up;
    }
    return v;
}

__device__ float warp_max(float v)
{
    #pragma unroll
    for (int mask = kWarp / 2; mask > 0; mask >>= 1) v = fmaxf(v, __shfl_xor_sync(kAllLanes, v, mask));
    return v;
}

__global__ void segment_normalise(const float* in, float* cumsum, float* scaled, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & (kWarp - 1);
    float v = i < n ? in[i] : 0.0f;

    float prefix = warp_inclusive_scan(v, lane);
    float total = __shfl_sync(kAllLanes, prefix, kWarp - 1);
    float peak = warp_max(fabsf(v));
    float first = __shfl_sync(kAllLanes, v, 0, kWarp);

    if (i < n) {
        cumsum[i] = total != 0.0f ? prefix / total : 0.0f;
        scaled[i] = peak > 0.0f ? (v - first) / peak : 0.0f;
    }
}

int main()
{
    const int n = 4096;
    float h_in[n];
    for (int i = 0; i < n; ++i) h_in[i] = static_cast<float>((i * 13) % 17) - 4.0f;
    float *d_in, *d_cum, *d_scaled;
    cudaMalloc(&d_in, sizeof(h_in));
    cudaMalloc(&d_cum, sizeof(h_in));
    cudaMalloc(&d_scaled, sizeof(h_in));
    cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice);

    segment_normalise<<<n / 128, 128>>>(d_in, d_cum, d_scaled, n);

    float h_cum[n];
    cudaMemcpy(h_cum, d_cum, sizeof(h_cum), cudaMemcpyDeviceToHost);
    std::printf("cum[31]=%f cum[63]=%f\n", h_cum[31], h_cum[63]);
    cudaFree(d_in);
    cudaFree(d_cum);
    cudaFree(d_scaled);
    return 0;
}
