// Min/max/sum statistics with atomics: float atomicAdd, integer atomicMax/atomicMin,
// a compare-and-swap loop for float max, and atomicExch/atomicInc for a ticket counter.
#include <cfloat>
#include <climits>
#include <cstdio>
#include <cuda_runtime.h>

struct Stats {
    float sum;
    float max_value;
    int max_index;
    int min_key;
    unsigned int ticket;
    int last_block;
};

__device__ float atomic_max_float(float* addr, float value)
{
    int* as_int = reinterpret_cast<int*>(addr);
    int old = *as_int, assumed;
    do {
        assumed = old;
        if (__int_as_float(assumed) >= value) break;
        old = atomicCAS(as_int, assumed, __float_as_int(value));
    } while (assumed != old);
    return __int_as_float(old);
}

__global__ void statistics(const float* x, int n, Stats* s)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        atomicAdd(&s->sum, v);
        float before = atomic_max_float(&s->max_value, v);
        if (v > before) atomicMax(&s->max_index, i);
        atomicMin(&s->min_key, static_cast<int>(v * 1000.0f));
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned int t = atomicInc(&s->ticket, gridDim.x - 1);
        if (t == gridDim.x - 1) atomicExch(&s->last_block, static_cast<int>(blockIdx.x));
    }
}

__global__ void double_accumulate(const float* x, int n, double* total)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(total, static_cast<double>(x[i]));
}

int main()
{
    const int n = 1 << 18;
    float* h = new float[n];
    for (int i = 0; i < n; ++i) h[i] = static_cast<float>((i * 7919) % 10007) / 10007.0f - 0.25f;

    Stats init = {0.0f, -FLT_MAX, -1, INT_MAX, 0u, -1};
    float* d_x;
    Stats* d_s;
    double* d_total;
    cudaMalloc(&d_x, n * sizeof(float));
    cudaMalloc(&d_s, sizeof(Stats));
    cudaMalloc(&d_total, sizeof(double));
    cudaMemcpy(d_x, h, n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(d_s, &init, sizeof(Stats), cudaMemcpyHostToDevice);
    cudaMemset(d_total, 0, sizeof(double));

    statistics<<<(n + 255) / 256, 256>>>(d_x, n, d_s);
    double_accumulate<<<(n + 255) / 256, 256>>>(d_x, n, d_total);

    Stats out;
    double total = 0;
    cudaMemcpy(&out, d_s, sizeof(Stats), cudaMemcpyDeviceToHost);
    cudaMemcpy(&total, d_total, sizeof(double), cudaMemcpyDeviceToHost);
    printf("sum %f (double %f) max %f min_key %d last block %d\n", out.sum, total, out.max_value,
           out.min_key, out.last_block);
    cudaFree(d_x);
    cudaFree(d_s);
    cudaFree(d_total);
    delete[] h;
    return 0;
}
