// Random numbers both ways: the cuRAND host API fills a buffer, and a kernel with
// Philox device states draws normals four at a time.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <curand.h>
#include <curand_kernel.h>

#define CURAND_CALL(x)                                                       \
    do {                                                                     \
        curandStatus_t st = (x);                                             \
        if (st != CURAND_STATUS_SUCCESS) {                                   \
            std::printf("cuRAND error %d at %s:%d\n", st, __FILE__, __LINE__); \
            return EXIT_FAILURE;                                             \
        }                                                                    \
    } while (0)

__global__ void philox_normals(float4* out, int n4, unsigned long long seed)
{
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    curandStatePhilox4_32_10_t state;
    curand_init(seed, id, 0, &state);
    for (int i = id; i < n4; i += gridDim.x * blockDim.x) out[i] = curand_normal4(&state);
}

__global__ void mean_of(const float* x, int n, float* mean)
{
    float s = 0.0f;
    for (int i = threadIdx.x; i < n; i += blockDim.x) s += x[i];
    atomicAdd(mean, s / n);
}

int main()
{
    const int n = 1 << 20;
    float *d_uniform, *d_mean;
    float4* d_normals;
    cudaMalloc(&d_uniform, n * sizeof(float));
    cudaMalloc(&d_normals, (n / 4) * sizeof(float4));
    cudaMalloc(&d_mean, sizeof(float));
    cudaMemset(d_mean, 0, sizeof(float));

    curandGenerator_t gen;
    CURAND_CALL(curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT));
    CURAND_CALL(curandSetPseudoRandomGeneratorSeed(gen, 1234ULL));
    CURAND_CALL(curandGenerateUniform(gen, d_uniform, n));
    CURAND_CALL(curandGenerateNormal(gen, reinterpret_cast<float*>(d_normals), n, 0.0f, 1.0f));

    philox_normals<<<128, 256>>>(d_normals, n / 4, 42ULL);
    mean_of<<<1, 256>>>(d_uniform, n, d_mean);

    float mean = 0;
    cudaMemcpy(&mean, d_mean, sizeof(float), cudaMemcpyDeviceToHost);
    std::printf("uniform mean %f (expect ~0.5)\n", mean);
    CURAND_CALL(curandDestroyGenerator(gen));
    cudaFree(d_uniform);
    cudaFree(d_normals);
    cudaFree(d_mean);
    return 0;
}
