// A reduction that picks its code path by the architecture it is compiled for, as libraries do:
// native double atomics from sm_60, PTX only on newer GPUs, and the device records the
// architecture (__CUDA_ARCH__ as a value) for the host's report.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(call)                                                                     \
    do {                                                                                \
        cudaError_t err_ = (call);                                                      \
        if (err_ != cudaSuccess) {                                                      \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
            return 1;                                                                   \
        }                                                                               \
    } while (0)

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 600
#define SUM_USES_CAS 1
#else
#define SUM_USES_CAS 0
#endif

__device__ double atomic_add_f64(double* address, double value)
{
#if __CUDA_ARCH__ >= 600
    return atomicAdd(address, value);
#else
    unsigned long long* word = reinterpret_cast<unsigned long long*>(address);
    unsigned long long old = *word, assumed;
    do {
        assumed = old;
        old = atomicCAS(word, assumed, __double_as_longlong(value + __longlong_as_double(assumed)));
    } while (assumed != old);
    return __longlong_as_double(old);
#endif
}

__device__ unsigned int multiprocessor_id()
{
#if __CUDA_ARCH__ >= 700
    unsigned int id;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
    return id;
#else
    return 0;
#endif
}

__global__ void sum_kernel(const double* in, double* total, int* arch, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0) {
#ifdef __CUDA_ARCH__
        arch[0] = __CUDA_ARCH__;
        arch[1] = SUM_USES_CAS;
        printf("device code for compute level %d\n", __CUDA_ARCH__ / 10);
#endif
        arch[2] = static_cast<int>(multiprocessor_id());
    }
    for (; i < n; i += blockDim.x * gridDim.x)
        atomic_add_f64(total, in[i]);
}

int main()
{
    const int n = 1 << 20;
    std::vector<double> host(n);
    for (int i = 0; i < n; ++i)
        host[i] = 1.0 / (1 + i % 97);
    double *d_in = nullptr, *d_total = nullptr;
    int* d_arch = nullptr;
    CHECK(cudaMalloc(&d_in, n * sizeof(double)));
    CHECK(cudaMalloc(&d_total, sizeof(double)));
    CHECK(cudaMalloc(&d_arch, 3 * sizeof(int)));
    CHECK(cudaMemcpy(d_in, host.data(), n * sizeof(double), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_total, 0, sizeof(double)));
    CHECK(cudaMemset(d_arch, 0, 3 * sizeof(int)));
    sum_kernel<<<256, 256>>>(d_in, d_total, d_arch, n);
    CHECK(cudaGetLastError());
    double total = 0;
    int arch[3];
    CHECK(cudaMemcpy(&total, d_total, sizeof(double), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(arch, d_arch, sizeof(arch), cudaMemcpyDeviceToHost));
    double expected = 0;
    for (int i = 0; i < n; ++i)
        expected += host[i];
    printf("sum %.6f (expected %.6f), compiled for %d, CAS fallback %d\n", total, expected, arch[0], arch[1]);
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_total));
    CHECK(cudaFree(d_arch));
    return (total - expected) * (total - expected) < 1e-6 ? 0 : 1;
}
