// cub_stats N KEY_BITS: sorts N (key, index) pairs by the low KEY_BITS bits of the key with CUB,
// gathers weights in that order, scans and reduces them on the device, and checks every result
// against the same computation on the host.
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include <cub/cub.cuh>

#include "stats.cuh"

namespace {

unsigned next_random(unsigned& state)
{
    state = state * 1664525u + 1013904223u;
    return state >> 8;
}

template <typename T>
T* device_copy(const std::vector<T>& host)
{
    T* d = nullptr;
    CHECK(cudaMalloc(&d, host.size() * sizeof(T)));
    CHECK(cudaMemcpy(d, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
    return d;
}

template <typename T>
std::vector<T> host_copy(const T* d, size_t n)
{
    std::vector<T> host(n);
    CHECK(cudaMemcpy(host.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
    return host;
}

template <typename T>
int mismatches(const std::vector<T>& got, const std::vector<T>& want)
{
    int bad = 0;
    for (size_t i = 0; i < want.size(); ++i) bad += got[i] != want[i];
    return bad;
}

}  // namespace

int main(int argc, char** argv)
{
    const int n = argc > 1 ? std::atoi(argv[1]) : 1 << 20;
    const int key_bits = argc > 2 ? std::atoi(argv[2]) : 20;
    if (n <= 0 || key_bits <= 0 || key_bits > 32) {
        std::fprintf(stderr, "usage: %s N KEY_BITS (N > 0, 0 < KEY_BITS <= 32)\n", argv[0]);
        return 2;
    }
    std::vector<unsigned> keys(n);
    std::vector<int> index(n), weights(n);
    unsigned state = 2024u;
    for (int i = 0; i < n; ++i) {
        keys[i] = next_random(state);
        index[i] = i;
        weights[i] = static_cast<int>(next_random(state) % 199) - 99;
    }

    unsigned *d_keys = device_copy(keys), *d_keys_sorted = nullptr;
    int *d_index = device_copy(index), *d_weights = device_copy(weights), *d_perm = nullptr;
    int *d_sorted_weights = nullptr, *d_prefix = nullptr, *d_total = nullptr;
    unsigned* d_max_key = nullptr;
    cub::KeyValuePair<int, int>* d_argmin = nullptr;
    const int blocks = blocks_for(n);
    int *d_block_sums = nullptr, *d_warp_sums = nullptr;
    CHECK(cudaMalloc(&d_keys_sorted, n * sizeof(unsigned)));
    CHECK(cudaMalloc(&d_perm, n * sizeof(int)));
    CHECK(cudaMalloc(&d_sorted_weights, n * sizeof(int)));
    CHECK(cudaMalloc(&d_prefix, n * sizeof(int)));
    CHECK(cudaMalloc(&d_total, sizeof(int)));
    CHECK(cudaMalloc(&d_max_key, sizeof(unsigned)));
    CHECK(cudaMalloc(&d_argmin, sizeof(cub::KeyValuePair<int, int>)));
    CHECK(cudaMalloc(&d_block_sums, blocks * sizeof(int)));
    CHECK(cudaMalloc(&d_warp_sums, blocks * kWarpsPerBlock * sizeof(int)));

    // each CUB call twice: first for the size of its temporary storage, then to run
    void* d_temp = nullptr;
    size_t temp_bytes = 0;
    CHECK(cub::DeviceRadixSort::SortPairs(d_temp, temp_bytes, d_keys, d_keys_sorted, d_index, d_perm, n, 0, key_bits));
    CHECK(cudaMalloc(&d_temp, temp_bytes));
    CHECK(cub::DeviceRadixSort::SortPairs(d_temp, temp_bytes, d_keys, d_keys_sorted, d_index, d_perm, n, 0, key_bits));
    CHECK(cudaFree(d_temp));

    gather_weights(d_weights, d_perm, d_sorted_weights, n);

    d_temp = nullptr;
    CHECK(cub::DeviceScan::ExclusiveSum(d_temp, temp_bytes, d_sorted_weights, d_prefix, n));
    CHECK(cudaMalloc(&d_temp, temp_bytes));
    CHECK(cub::DeviceScan::ExclusiveSum(d_temp, temp_bytes, d_sorted_weights, d_prefix, n));
    CHECK(cudaFree(d_temp));

    d_temp = nullptr;
    CHECK(cub::DeviceReduce::Sum(d_temp, temp_bytes, d_sorted_weights, d_total, n));
    CHECK(cudaMalloc(&d_temp, temp_bytes));
    CHECK(cub::DeviceReduce::Sum(d_temp, temp_bytes, d_sorted_weights, d_total, n));
    CHECK(cudaFree(d_temp));

    d_temp = nullptr;
    CHECK(cub::DeviceReduce::Max(d_temp, temp_bytes, d_keys_sorted, d_max_key, n));
    CHECK(cudaMalloc(&d_temp, temp_bytes));
    CHECK(cub::DeviceReduce::Max(d_temp, temp_bytes, d_keys_sorted, d_max_key, n));
    CHECK(cudaFree(d_temp));

    d_temp = nullptr;
    CHECK(cub::DeviceReduce::ArgMin(d_temp, temp_bytes, d_weights, d_argmin, n));
    CHECK(cudaMalloc(&d_temp, temp_bytes));
    CHECK(cub::DeviceReduce::ArgMin(d_temp, temp_bytes, d_weights, d_argmin, n));
    CHECK(cudaFree(d_temp));

    block_sums(d_sorted_weights, n, d_block_sums, d_warp_sums);
    CHECK(cudaDeviceSynchronize());

    // the same on the host
    const unsigned mask = key_bits == 32 ? ~0u : (1u << key_bits) - 1;
    std::vector<int> want_perm(index);
    std::stable_sort(want_perm.begin(), want_perm.end(),
                     [&](int a, int b) { return (keys[a] & mask) < (keys[b] & mask); });
    std::vector<unsigned> want_keys(n);
    std::vector<int> want_weights(n), want_prefix(n);
    for (int i = 0; i < n; ++i) {
        want_keys[i] = keys[want_perm[i]];
        want_weights[i] = weights[want_perm[i]];
    }
    int running = 0;
    for (int i = 0; i < n; ++i) {
        want_prefix[i] = running;
        running += want_weights[i];
    }
    const int want_total = running;
    const unsigned want_max = *std::max_element(want_keys.begin(), want_keys.end());
    const int want_argmin = static_cast<int>(std::min_element(weights.begin(), weights.end()) - weights.begin());
    std::vector<int> want_blocks(blocks, 0), want_warps(blocks * kWarpsPerBlock, 0);
    for (int i = 0; i < n; ++i) {
        want_blocks[i / kBlockThreads] += want_weights[i];
        want_warps[i / kWarpThreads] += want_weights[i];
    }

    const int bad_perm = mismatches(host_copy(d_perm, n), want_perm);
    const int bad_keys = mismatches(host_copy(d_keys_sorted, n), want_keys);
    const int bad_prefix = mismatches(host_copy(d_prefix, n), want_prefix);
    const int total = host_copy(d_total, 1)[0];
    const unsigned max_key = host_copy(d_max_key, 1)[0];
    const cub::KeyValuePair<int, int> argmin = host_copy(d_argmin, 1)[0];
    const int bad_blocks = mismatches(host_copy(d_block_sums, blocks), want_blocks);
    const int bad_warps = mismatches(host_copy(d_warp_sums, blocks * kWarpsPerBlock), want_warps);

    std::printf("sorted %d pairs by %d key bits: %d order and %d key mismatches\n", n, key_bits, bad_perm, bad_keys);
    std::printf("prefix sums: %d mismatches, last %d\n", bad_prefix, host_copy(d_prefix, n)[n - 1]);
    std::printf("total %d (expect %d), max key %u (expect %u)\n", total, want_total, max_key, want_max);
    std::printf("lightest weight %d at %d (expect at %d)\n", argmin.value, argmin.key, want_argmin);
    std::printf("%d block sums: %d mismatches; %d warp sums: %d mismatches\n", blocks, bad_blocks,
                blocks * kWarpsPerBlock, bad_warps);
    const bool ok = bad_perm == 0 && bad_keys == 0 && bad_prefix == 0 && total == want_total && max_key == want_max &&
                    argmin.key == want_argmin && bad_blocks == 0 && bad_warps == 0;
    std::printf("%s\n", ok ? "PASS" : "FAIL");

    CHECK(cudaFree(d_keys));
    CHECK(cudaFree(d_keys_sorted));
    CHECK(cudaFree(d_index));
    CHECK(cudaFree(d_weights));
    CHECK(cudaFree(d_perm));
    CHECK(cudaFree(d_sorted_weights));
    CHECK(cudaFree(d_prefix));
    CHECK(cudaFree(d_total));
    CHECK(cudaFree(d_max_key));
    CHECK(cudaFree(d_argmin));
    CHECK(cudaFree(d_block_sums));
    CHECK(cudaFree(d_warp_sums));
    return ok ? 0 : 1;
}
