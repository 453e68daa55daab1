// Thrust containers and algorithms: SAXPY with a functor, reductions, sort and unique.
#include <cstdio>
#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <thrust/unique.h>

struct saxpy_functor {
    const float a;
    explicit saxpy_functor(float a_) : a(a_) {}
    __host__ __device__ float operator()(const float& x, const float& y) const { return a * x + y; }
};

struct modulo {
    int m;
    __host__ __device__ int operator()(int x) const { return x % m; }
};

int main()
{
    const int n = 1 << 16;
    thrust::device_vector<float> x(n), y(n, 2.0f);
    thrust::sequence(x.begin(), x.end(), 0.0f, 0.5f);
    thrust::transform(x.begin(), x.end(), y.begin(), y.begin(), saxpy_functor(3.0f));
    float total = thrust::reduce(y.begin(), y.end(), 0.0f, thrust::plus<float>());
    float biggest = thrust::reduce(y.begin(), y.end(), -1.0f, thrust::maximum<float>());

    thrust::device_vector<int> keys(n);
    thrust::sequence(keys.begin(), keys.end());
    modulo mod{97};
    thrust::transform(keys.begin(), keys.end(), keys.begin(), mod);
    thrust::sort(keys.begin(), keys.end(), thrust::greater<int>());
    auto end = thrust::unique(keys.begin(), keys.end());
    int distinct = static_cast<int>(end - keys.begin());

    thrust::host_vector<int> top(5);
    thrust::copy(keys.begin(), keys.begin() + 5, top.begin());
    std::printf("sum %.1f max %.1f distinct %d top %d %d %d\n", total, biggest, distinct, top[0], top[1],
                top[2]);

    float* raw = thrust::raw_pointer_cast(y.data());
    std::printf("raw pointer %p\n", static_cast<void*>(raw));
    return distinct == 97 ? 0 : 1;
}
