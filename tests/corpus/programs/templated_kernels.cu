// Generic element-wise and reduction kernels as templates, with explicit instantiations so a
// separately compiled host file could launch them.
#include <cstdio>
#include <cstdint>
#include <cuda_runtime.h>

template <typename T>
struct Square {
    __device__ T operator()(T x) const { return x * x; }
};

template <typename T>
struct Negate {
    __device__ T operator()(T x) const { return -x; }
};

template <typename T, typename Op>
__global__ void map_kernel(const T* in, T* out, size_t n, Op op)
{
    size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    if (i < n) out[i] = op(in[i]);
}

template <typename T, int BLOCK>
__global__ void block_sum(const T* in, T* out, size_t n)
{
    __shared__ T cache[BLOCK];
    size_t i = blockIdx.x * static_cast<size_t>(BLOCK) + threadIdx.x;
    cache[threadIdx.x] = i < n ? in[i] : T(0);
    __syncthreads();
    #pragma unroll
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) cache[threadIdx.x] += cache[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = cache[0];
}

template __global__ void map_kernel<float, Square<float>>(const float*, float*, size_t, Square<float>);
template __global__ void map_kernel<double, Negate<double>>(const double*, double*, size_t, Negate<double>);
template __global__ void block_sum<float, 256>(const float*, float*, size_t);
template __global__ void block_sum<int64_t, 128>(const int64_t*, int64_t*, size_t);

template <typename T, int BLOCK>
T device_sum(const T* d_in, size_t n)
{
    size_t blocks = (n + BLOCK - 1) / BLOCK;
    T* d_partial;
    cudaMalloc(&d_partial, blocks * sizeof(T));
    block_sum<T, BLOCK><<<static_cast<unsigned>(blocks), BLOCK>>>(d_in, d_partial, n);
    T* h_partial = new T[blocks];
    cudaMemcpy(h_partial, d_partial, blocks * sizeof(T), cudaMemcpyDeviceToHost);
    T total = 0;
    for (size_t b = 0; b < blocks; ++b) total += h_partial[b];
    delete[] h_partial;
    cudaFree(d_partial);
    return total;
}

int main()
{
    const size_t n = 10000;
    float* h = new float[n];
    for (size_t i = 0; i < n; ++i) h[i] = 0.01f * static_cast<float>(i % 100);
    float *d_in, *d_sq;
    cudaMalloc(&d_in, n * sizeof(float));
    cudaMalloc(&d_sq, n * sizeof(float));
    cudaMemcpy(d_in, h, n * sizeof(float), cudaMemcpyHostToDevice);

    map_kernel<<<(n + 255) / 256, 256>>>(d_in, d_sq, n, Square<float>());
    float sum_sq = device_sum<float, 256>(d_sq, n);

    int64_t* d_ints;
    cudaMalloc(&d_ints, n * sizeof(int64_t));
    cudaMemset(d_ints, 0, n * sizeof(int64_t));
    int64_t zero = device_sum<int64_t, 128>(d_ints, n);
    std::printf("sum of squares %f, zeros sum %lld\n", sum_sq, static_cast<long long>(zero));

    cudaFree(d_in);
    cudaFree(d_sq);
    cudaFree(d_ints);
    delete[] h;
    return 0;
}
