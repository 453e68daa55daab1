// Monte Carlo estimate of pi with per-thread cuRAND XORWOW states (device API).
#include <cstdio>
#include <cuda_runtime.h>
#include <curand_kernel.h>

__global__ void setup_states(curandState* states, unsigned long long seed)
{
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    // Same seed, distinct subsequences: independent streams per thread.
    curand_init(seed, id, 0, &states[id]);
}

__global__ void count_inside(curandState* states, int samples_per_thread, unsigned long long* hits)
{
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    curandState local = states[id];
    unsigned int inside = 0;
    for (int s = 0; s < samples_per_thread; ++s) {
        float x = curand_uniform(&local);
        float y = curand_uniform(&local);
        if (x * x + y * y <= 1.0f) ++inside;
    }
    states[id] = local;
    atomicAdd(hits, static_cast<unsigned long long>(inside));
}

__global__ void gaussian_noise(curandState* states, float* out, int n, float sigma)
{
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    curandState local = states[id];
    for (int i = id; i < n; i += gridDim.x * blockDim.x) out[i] = sigma * curand_normal(&local);
    states[id] = local;
}

int main()
{
    const int blocks = 64, threads = 128, per_thread = 10000;
    const int total_threads = blocks * threads;
    curandState* states;
    unsigned long long* d_hits;
    float* d_noise;
    cudaMalloc(&states, total_threads * sizeof(curandState));
    cudaMalloc(&d_hits, sizeof(unsigned long long));
    cudaMalloc(&d_noise, 4096 * sizeof(float));
    cudaMemset(d_hits, 0, sizeof(unsigned long long));

    setup_states<<<blocks, threads>>>(states, 2024ULL);
    count_inside<<<blocks, threads>>>(states, per_thread, d_hits);
    gaussian_noise<<<blocks, threads>>>(states, d_noise, 4096, 0.1f);

    unsigned long long hits = 0;
    cudaMemcpy(&hits, d_hits, sizeof(hits), cudaMemcpyDeviceToHost);
    double pi = 4.0 * hits / (double(total_threads) * per_thread);
    std::printf("pi ~ %.6f\n", pi);
    cudaFree(states);
    cudaFree(d_hits);
    cudaFree(d_noise);
    return 0;
}
