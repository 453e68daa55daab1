// grid_norm: per-block statistics with tile reductions, then a cooperative two-phase kernel that
// centres the data on its grid-wide mean. Sizes from the command line: grid_norm [n] [blocks].
#include <vector>

#include "norm.cuh"

int main(int argc, char** argv)
{
    const int n = argc > 1 ? std::atoi(argv[1]) : 1 << 16;
    int supported = 0;
    CHECK(cudaDeviceGetAttribute(&supported, cudaDevAttrCooperativeLaunch, 0));
    if (!supported) {
        std::printf("no cooperative launch on this device\n");
        return 1;
    }
    const int fit = cooperative_blocks_that_fit();
    const int coop_blocks = argc > 2 ? std::atoi(argv[2]) : fit;
    const int blocks = (n + NORM_THREADS - 1) / NORM_THREADS;

    std::vector<int> x(n);
    for (int i = 0; i < n; ++i) x[i] = (i * 37 + 11) % 101;

    int *d_x, *d_odd, *d_out;
    long long *d_sums, *d_partials;
    CHECK(cudaMalloc(&d_x, n * sizeof(int)));
    CHECK(cudaMalloc(&d_sums, blocks * sizeof(long long)));
    CHECK(cudaMalloc(&d_odd, blocks * sizeof(int)));
    CHECK(cudaMalloc(&d_partials, (coop_blocks > fit ? coop_blocks : fit) * sizeof(long long)));
    CHECK(cudaMalloc(&d_out, n * sizeof(int)));
    CHECK(cudaMemcpy(d_x, x.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_partials, 0, (coop_blocks > fit ? coop_blocks : fit) * sizeof(long long)));

    block_stats(d_x, n, d_sums, d_odd, blocks);
    std::vector<long long> sums(blocks);
    std::vector<int> odd(blocks);
    CHECK(cudaMemcpy(sums.data(), d_sums, blocks * sizeof(long long), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(odd.data(), d_odd, blocks * sizeof(int), cudaMemcpyDeviceToHost));

    int wrong = 0;
    for (int b = 0; b < blocks; ++b) {
        long long want_sum = 0;
        int want_odd = 0;
        for (int t = 0; t < NORM_THREADS; ++t) {
            const int i = b * NORM_THREADS + t;
            const int right_i = b * NORM_THREADS + t / NORM_TILE * NORM_TILE + (t + 1) % NORM_TILE;
            const int v = i < n ? x[i] : 0, right = right_i < n ? x[right_i] : 0;
            want_sum += 3LL * v + right;
            want_odd += v & 1;
        }
        wrong += sums[b] != want_sum || odd[b] != want_odd;
    }
    std::printf("block stats: %d blocks, %d wrong, sums[0] = %lld, odd[0] = %d\n", blocks, wrong, sums[0], odd[0]);

    cudaError_t launch = center_cooperative(d_x, n, d_partials, d_out, coop_blocks);
    std::printf("cooperative launch of %d blocks (%d fit): %s\n", coop_blocks, fit,
                launch == cudaSuccess ? "ok" : cudaGetErrorName(launch));
    if (launch == cudaSuccess) {
        CHECK(cudaDeviceSynchronize());
        std::vector<int> out(n);
        CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
        long long sum = 0;
        for (int i = 0; i < n; ++i) sum += x[i];
        const int mean = static_cast<int>(sum / n);
        int off = 0;
        for (int i = 0; i < n; ++i) off += out[i] != x[i] - mean;
        std::printf("centred on mean %d: %d of %d wrong, out[0] = %d, out[n-1] = %d\n", mean, off, n, out[0], out[n - 1]);
        wrong += off;
    } else {
        (void)cudaGetLastError();
    }
    CHECK(cudaFree(d_x));
    CHECK(cudaFree(d_sums));
    CHECK(cudaFree(d_odd));
    CHECK(cudaFree(d_partials));
    CHECK(cudaFree(d_out));
    std::printf("%s\n", wrong == 0 ? "PASSED" : "FAILED");
    return wrong == 0 ? 0 : 2;
}
