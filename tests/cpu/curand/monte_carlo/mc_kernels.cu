// Device-API half: XORWOW states for the pi estimate, Philox states for a histogram of normals.
#include "mc.cuh"

__global__ void init_xorwow(curandState* states, unsigned long long seed)
{
    const int id = blockIdx.x * blockDim.x + threadIdx.x;
    curand_init(seed, id, 0, &states[id]);  // one subsequence per thread
}

__global__ void count_hits(curandState* states, int samples, unsigned long long* hits)
{
    const int id = blockIdx.x * blockDim.x + threadIdx.x;
    curandState local = states[id];
    unsigned int inside = 0;
    for (int i = 0; i < samples; ++i) {
        const float x = curand_uniform(&local);
        const float y = curand_uniform(&local);
        inside += (x * x + y * y <= 1.0f);
    }
    states[id] = local;
    atomicAdd(hits, static_cast<unsigned long long>(inside));
}

__global__ void histogram_normals(unsigned long long seed, int samples, unsigned int* bins)
{
    const int id = blockIdx.x * blockDim.x + threadIdx.x;
    curandStatePhilox4_32_10_t state;
    curand_init(seed, id, 0, &state);
    for (int i = 0; i < samples; i += 4) {
        const float4 z = curand_normal4(&state);
        const float v[4] = {z.x, z.y, z.z, z.w};
        for (float x : v) {
            const int bin = static_cast<int>(floorf(x / kBinWidth)) + kBins / 2;
            if (bin >= 0 && bin < kBins) atomicAdd(&bins[bin], 1u);
        }
    }
}

void estimate_pi_device(const RunShape& shape, unsigned long long seed, unsigned long long* hits)
{
    curandState* states = nullptr;
    const int n = shape.blocks * shape.threads;
    CUDA_CHECK(cudaMalloc(&states, n * sizeof(curandState)));
    init_xorwow<<<shape.blocks, shape.threads>>>(states, seed);
    CUDA_CHECK(cudaGetLastError());
    count_hits<<<shape.blocks, shape.threads>>>(states, shape.samples, hits);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaFree(states));
}

void normal_histogram_device(const RunShape& shape, unsigned long long seed, unsigned int* bins)
{
    histogram_normals<<<shape.blocks, shape.threads>>>(seed, shape.samples, bins);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
}
