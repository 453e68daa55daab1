// Vector addition with full error checking: the first program most people port.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                        \
    do {                                                                        \
        cudaError_t err_ = (call);                                              \
        if (err_ != cudaSuccess) {                                              \
            std::fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", __FILE__,       \
                         __LINE__, #call, cudaGetErrorString(err_),             \
                         cudaGetErrorName(err_));                               \
            std::exit(EXIT_FAILURE);                                            \
        }                                                                       \
    } while (0)

__global__ void vector_add(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int stride = gridDim.x * blockDim.x;
    for (; i < n; i += stride) {
        c[i] = a[i] + b[i];
    }
}

int main(int argc, char** argv)
{
    int n = argc > 1 ? std::atoi(argv[1]) : (1 << 20);
    size_t bytes = static_cast<size_t>(n) * sizeof(float);

    std::vector<float> h_a(n), h_b(n), h_c(n);
    for (int i = 0; i < n; ++i) {
        h_a[i] = 0.5f * i;
        h_b[i] = 2.0f - i;
    }

    int device = 0;
    CUDA_CHECK(cudaSetDevice(device));

    float *d_a = nullptr, *d_b = nullptr, *d_c = nullptr;
    CUDA_CHECK(cudaMalloc(&d_a, bytes));
    CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&d_b), bytes));
    CUDA_CHECK(cudaMalloc((void**)&d_c, bytes));
    CUDA_CHECK(cudaMemset(d_c, 0, bytes));

    CUDA_CHECK(cudaMemcpy(d_a, h_a.data(), bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_b, h_b.data(), bytes, cudaMemcpyHostToDevice));

    int block = 256;
    int grid = (n + block - 1) / block;
    if (grid > 4096) grid = 4096;
    vector_add<<<grid, block>>>(d_a, d_b, d_c, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaMemcpy(h_c.data(), d_c, bytes, cudaMemcpyDeviceToHost));

    int errors = 0;
    for (int i = 0; i < n; ++i) {
        float expect = h_a[i] + h_b[i];
        if (h_c[i] != expect && ++errors < 5) {
            std::printf("mismatch at %d: %f != %f\n", i, h_c[i], expect);
        }
    }
    std::printf("%s (%d elements)\n", errors ? "FAILED" : "PASSED", n);

    CUDA_CHECK(cudaFree(d_a));
    CUDA_CHECK(cudaFree(d_b));
    CUDA_CHECK(cudaFree(d_c));
    CUDA_CHECK(cudaDeviceReset());
    return errors ? EXIT_FAILURE : EXIT_SUCCESS;
}
