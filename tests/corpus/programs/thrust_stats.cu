// Mean and variance in one pass with thrust::transform_reduce over a custom state struct,
// plus sort_by_key and inclusive_scan on device memory wrapped with device_ptr.
#include <cmath>
#include <cstdio>
#include <cuda_runtime.h>
#include <thrust/device_ptr.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/host_vector.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <thrust/transform_reduce.h>

struct Moments {
    float n, mean, m2;
};

struct to_moments {
    __host__ __device__ Moments operator()(float x) const { return Moments{1.0f, x, 0.0f}; }
};

struct merge_moments {
    __host__ __device__ Moments operator()(const Moments& a, const Moments& b) const
    {
        float n = a.n + b.n;
        if (n == 0.0f) return a;
        float delta = b.mean - a.mean;
        return Moments{n, a.mean + delta * b.n / n, a.m2 + b.m2 + delta * delta * a.n * b.n / n};
    }
};

int main()
{
    const int n = 100000;
    thrust::device_vector<float> data(n);
    for (int i = 0; i < 10; ++i) data[i] = static_cast<float>(i);
    thrust::host_vector<float> h(n);
    for (int i = 0; i < n; ++i) h[i] = std::sin(0.001f * i) + 1.0f;
    data = h;

    Moments m = thrust::transform_reduce(data.begin(), data.end(), to_moments(), Moments{0, 0, 0},
                                         merge_moments());
    std::printf("mean %f variance %f\n", m.mean, m.m2 / (m.n - 1));

    int* raw_keys;
    float* raw_vals;
    cudaMalloc(&raw_keys, n * sizeof(int));
    cudaMalloc(&raw_vals, n * sizeof(float));
    thrust::device_ptr<int> keys(raw_keys);
    thrust::device_ptr<float> vals(raw_vals);
    for (int i = 0; i < 8; ++i) keys[i] = 8 - i;
    thrust::copy(data.begin(), data.end(), vals);
    thrust::sort_by_key(thrust::device, keys, keys + 8, vals);
    thrust::inclusive_scan(thrust::device, vals, vals + n, vals);
    float last = vals[n - 1];
    std::printf("prefix total %f\n", last);
    cudaFree(raw_keys);
    cudaFree(raw_vals);
    return 0;
}
