// Random numbers with cuRAND: a host-API generator filling buffers, and per-thread device states.
#include <cstdio>
#include <cuda_runtime.h>
#include <curand.h>
#include <curand_kernel.h>

__global__ void walk(unsigned long long seed, float* out, int steps) {
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    curandState_t state;
    curand_init(seed, id, 0, &state);
    float position = 0.0f;
    for (int i = 0; i < steps; ++i) position += curand_normal(&state) * 0.1f + (curand_uniform(&state) - 0.5f);
    out[id] = position;
}

int main() {
    const int n = 1024;
    float *uniform, *normal, *walks;
    cudaMalloc(&uniform, n * sizeof(float));
    cudaMalloc(&normal, n * sizeof(float));
    cudaMalloc(&walks, n * sizeof(float));

    curandGenerator_t gen;
    if (curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT) != CURAND_STATUS_SUCCESS) return 1;
    curandSetPseudoRandomGeneratorSeed(gen, 1234ULL);
    curandGenerateUniform(gen, uniform, n);
    curandGenerateNormal(gen, normal, n, 0.0f, 1.0f);
    curandDestroyGenerator(gen);

    walk<<<n / 256, 256>>>(42ULL, walks, 100);
    cudaDeviceSynchronize();
    float first;
    cudaMemcpy(&first, walks, sizeof(float), cudaMemcpyDeviceToHost);
    std::printf("first walk ends at %f\n", first);
    cudaFree(uniform);
    cudaFree(normal);
    cudaFree(walks);
    return 0;
}
