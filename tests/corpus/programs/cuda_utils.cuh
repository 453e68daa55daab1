// Small header-only utility layer of the kind most CUDA projects grow: error checking,
// a device-buffer RAII type and grid-stride helpers.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                                  \
    do {                                                                                  \
        cudaError_t status_ = (call);                                                     \
        if (status_ != cudaSuccess) {                                                     \
            std::fprintf(stderr, "[%s:%d] %s: %s\n", __FILE__, __LINE__, #call,           \
                         cudaGetErrorString(status_));                                    \
            std::abort();                                                                 \
        }                                                                                 \
    } while (0)

#define GRID_STRIDE_LOOP(i, n) \
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += blockDim.x * gridDim.x)

template <typename T>
class DeviceBuffer {
public:
    explicit DeviceBuffer(size_t count) : count_(count) { CUDA_CHECK(cudaMalloc(&ptr_, count * sizeof(T))); }
    ~DeviceBuffer() { cudaFree(ptr_); }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;

    void upload(const T* host) { CUDA_CHECK(cudaMemcpy(ptr_, host, bytes(), cudaMemcpyHostToDevice)); }
    void download(T* host) const { CUDA_CHECK(cudaMemcpy(host, ptr_, bytes(), cudaMemcpyDeviceToHost)); }
    void zero() { CUDA_CHECK(cudaMemset(ptr_, 0, bytes())); }
    T* get() const { return ptr_; }
    size_t size() const { return count_; }
    size_t bytes() const { return count_ * sizeof(T); }

private:
    T* ptr_ = nullptr;
    size_t count_;
};

__device__ __forceinline__ float squared_distance(const float* a, const float* b, int dims)
{
    float d = 0.0f;
    for (int k = 0; k < dims; ++k) {
        float t = a[k] - b[k];
        d = fmaf(t, t, d);
    }
    return d;
}

inline int blocks_for(int n, int threads) { return (n + threads - 1) / threads; }
