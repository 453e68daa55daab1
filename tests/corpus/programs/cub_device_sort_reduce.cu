// Device-wide CUB algorithms with the usual two-call temporary-storage protocol:
// DeviceReduce::Sum / Max and DeviceRadixSort::SortPairs.
#include <cstdio>
#include <vector>
#include <cub/cub.cuh>
#include <cuda_runtime.h>

#define CUB_TRY(call)                                                       \
    do {                                                                    \
        cudaError_t err = (call);                                           \
        if (err != cudaSuccess) {                                           \
            std::printf("%s: %s\n", #call, cudaGetErrorString(err));        \
            return 1;                                                       \
        }                                                                   \
    } while (0)

int main()
{
    const int n = 1 << 20;
    std::vector<unsigned int> keys(n);
    std::vector<int> values(n);
    for (int i = 0; i < n; ++i) {
        keys[i] = (i * 2654435761u) >> 8;
        values[i] = i;
    }

    unsigned int *d_keys_in, *d_keys_out;
    int *d_vals_in, *d_vals_out, *d_sum, *d_max;
    CUB_TRY(cudaMalloc(&d_keys_in, n * sizeof(unsigned int)));
    CUB_TRY(cudaMalloc(&d_keys_out, n * sizeof(unsigned int)));
    CUB_TRY(cudaMalloc(&d_vals_in, n * sizeof(int)));
    CUB_TRY(cudaMalloc(&d_vals_out, n * sizeof(int)));
    CUB_TRY(cudaMalloc(&d_sum, sizeof(int)));
    CUB_TRY(cudaMalloc(&d_max, sizeof(int)));
    CUB_TRY(cudaMemcpy(d_keys_in, keys.data(), n * sizeof(unsigned int), cudaMemcpyHostToDevice));
    CUB_TRY(cudaMemcpy(d_vals_in, values.data(), n * sizeof(int), cudaMemcpyHostToDevice));

    void* d_temp = nullptr;
    size_t temp_bytes = 0;
    CUB_TRY(cub::DeviceReduce::Sum(d_temp, temp_bytes, d_vals_in, d_sum, n));
    CUB_TRY(cudaMalloc(&d_temp, temp_bytes));
    CUB_TRY(cub::DeviceReduce::Sum(d_temp, temp_bytes, d_vals_in, d_sum, n));
    CUB_TRY(cudaFree(d_temp));

    d_temp = nullptr;
    temp_bytes = 0;
    CUB_TRY(cub::DeviceReduce::Max(d_temp, temp_bytes, d_vals_in, d_max, n));
    CUB_TRY(cudaMalloc(&d_temp, temp_bytes));
    CUB_TRY(cub::DeviceReduce::Max(d_temp, temp_bytes, d_vals_in, d_max, n));
    CUB_TRY(cudaFree(d_temp));

    d_temp = nullptr;
    temp_bytes = 0;
    CUB_TRY(cub::DeviceRadixSort::SortPairs(d_temp, temp_bytes, d_keys_in, d_keys_out, d_vals_in,
                                            d_vals_out, n));
    CUB_TRY(cudaMalloc(&d_temp, temp_bytes));
    CUB_TRY(cub::DeviceRadixSort::SortPairs(d_temp, temp_bytes, d_keys_in, d_keys_out, d_vals_in,
                                            d_vals_out, n));

    int sum = 0, mx = 0;
    CUB_TRY(cudaMemcpy(&sum, d_sum, sizeof(int), cudaMemcpyDeviceToHost));
    CUB_TRY(cudaMemcpy(&mx, d_max, sizeof(int), cudaMemcpyDeviceToHost));
    std::vector<unsigned int> sorted(n);
    CUB_TRY(cudaMemcpy(sorted.data(), d_keys_out, n * sizeof(unsigned int), cudaMemcpyDeviceToHost));
    bool ordered = true;
    for (int i = 1; i < n; ++i) ordered = ordered && sorted[i - 1] <= sorted[i];
    std::printf("sum %d max %d sorted %s\n", sum, mx, ordered ? "yes" : "no");

    cudaFree(d_temp);
    cudaFree(d_keys_in);
    cudaFree(d_keys_out);
    cudaFree(d_vals_in);
    cudaFree(d_vals_out);
    cudaFree(d_sum);
    cudaFree(d_max);
    return ordered ? 0 : 1;
}
