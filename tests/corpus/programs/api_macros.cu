// A project-style error-handling layer built from macros: API calls, kernel launches and
// allocation helpers all go through #defines whose bodies name CUDA runtime functions.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CUDA_CHECK(expr) cuda_check((expr), #expr, __FILE__, __LINE__)
#define CUDA_CHECK_LAST() CUDA_CHECK(cudaGetLastError())
#define CUDA_SYNC_CHECK()                 \
    do {                                  \
        CUDA_CHECK(cudaGetLastError());   \
        CUDA_CHECK(cudaDeviceSynchronize()); \
    } while (0)
#define DEVICE_ALLOC(ptr, count) CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&(ptr)), (count) * sizeof(*(ptr))))
#define DEVICE_FREE(ptr)             \
    do {                             \
        if (ptr) cudaFree(ptr);      \
        (ptr) = nullptr;             \
    } while (0)
#define LAUNCH(kernel, grid, block, ...) \
    do {                                 \
        kernel<<<(grid), (block)>>>(__VA_ARGS__); \
        CUDA_CHECK_LAST();               \
    } while (0)
#define COPY_TO_DEVICE(dst, src, count) \
    CUDA_CHECK(cudaMemcpy((dst), (src), (count) * sizeof(*(src)), cudaMemcpyHostToDevice))
#define COPY_TO_HOST(dst, src, count) \
    CUDA_CHECK(cudaMemcpy((dst), (src), (count) * sizeof(*(src)), cudaMemcpyDeviceToHost))

static void cuda_check(cudaError_t result, const char* expr, const char* file, int line)
{
    if (result == cudaSuccess) return;
    std::fprintf(stderr, "%s:%d: %s returned %s (%d)\n", file, line, expr, cudaGetErrorString(result),
                 static_cast<int>(result));
    cudaDeviceReset();
    std::exit(EXIT_FAILURE);
}

__global__ void clamp_kernel(float* data, int n, float lo, float hi)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] = fminf(fmaxf(data[i], lo), hi);
}

__global__ void fill_kernel(float* data, int n, float value)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] = value * i;
}

int main()
{
    const int n = 5000;
    float* host = static_cast<float*>(std::malloc(n * sizeof(float)));
    float* dev = nullptr;
    DEVICE_ALLOC(dev, n);
    LAUNCH(fill_kernel, (n + 127) / 128, 128, dev, n, 0.01f);
    LAUNCH(clamp_kernel, (n + 127) / 128, 128, dev, n, 5.0f, 40.0f);
    CUDA_SYNC_CHECK();
    COPY_TO_HOST(host, dev, n);
    std::printf("host[0]=%f host[2000]=%f host[4999]=%f\n", host[0], host[2000], host[4999]);
    COPY_TO_DEVICE(dev, host, n);

    cudaError_t expected = cudaMemcpy(dev, host, static_cast<size_t>(-1), cudaMemcpyHostToDevice);
    std::printf("oversized copy reports: %s\n", cudaGetErrorName(expected));
    cudaGetLastError();  // clear the sticky-free error so the next check passes

    DEVICE_FREE(dev);
    std::free(host);
    return 0;
}
