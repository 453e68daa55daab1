// Hand-written PTX that ports cannot keep: lane id and SM id registers, a bit-field extract,
// and a non-coherent global load.
#include <cstdio>
#include <cuda_runtime.h>

__device__ __forceinline__ unsigned lane_id()
{
    unsigned id;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(id));
    return id;
}

__device__ __forceinline__ unsigned sm_id()
{
    unsigned id;
    asm("mov.u32 %0, %%smid;" : "=r"(id));
    return id;
}

__device__ __forceinline__ unsigned bit_field(unsigned value, unsigned start, unsigned len)
{
    unsigned out;
    asm("bfe.u32 %0, %1, %2, %3;" : "=r"(out) : "r"(value), "r"(start), "r"(len));
    return out;
}

__device__ __forceinline__ float load_nc(const float* p)
{
    float v;
    asm volatile("ld.global.nc.f32 %0, [%1];" : "=f"(v) : "l"(p));
    return v;
}

__global__ void inspect(const float* in, unsigned* lanes, unsigned* sms, unsigned* fields, float* copy, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    lanes[i] = lane_id();
    sms[i] = sm_id();
    fields[i] = bit_field(static_cast<unsigned>(i) * 2654435761u, 8, 5);
    copy[i] = load_nc(in + i);
}

int main()
{
    const int n = 256;
    float* d_in;
    unsigned *d_lanes, *d_sms, *d_fields;
    float* d_copy;
    cudaMalloc(&d_in, n * sizeof(float));
    cudaMalloc(&d_lanes, n * sizeof(unsigned));
    cudaMalloc(&d_sms, n * sizeof(unsigned));
    cudaMalloc(&d_fields, n * sizeof(unsigned));
    cudaMalloc(&d_copy, n * sizeof(float));
    cudaMemset(d_in, 0, n * sizeof(float));
    inspect<<<2, 128>>>(d_in, d_lanes, d_sms, d_fields, d_copy, n);
    unsigned lanes[n];
    cudaMemcpy(lanes, d_lanes, sizeof(lanes), cudaMemcpyDeviceToHost);
    std::printf("lane of thread 37: %u\n", lanes[37]);
    cudaFree(d_in);
    cudaFree(d_lanes);
    cudaFree(d_sms);
    cudaFree(d_fields);
    cudaFree(d_copy);
    return lanes[37] != 5;
}
