// One Lloyd iteration of k-means: assign points to the nearest centroid (centroids cached in
// shared memory), accumulate new sums with atomics, then divide. Helpers come from cuda_utils.cuh.
#include <vector>
#include "cuda_utils.cuh"

constexpr int kDims = 4;
constexpr int kMaxClusters = 16;

__global__ void assign(const float* points, const float* centroids, int n, int k, int* labels,
                       float* sums, int* counts)
{
    __shared__ float c[kMaxClusters * kDims];
    for (int t = threadIdx.x; t < k * kDims; t += blockDim.x) c[t] = centroids[t];
    __syncthreads();

    GRID_STRIDE_LOOP(i, n) {
        const float* p = points + i * kDims;
        int best = 0;
        float best_d = squared_distance(p, c, kDims);
        for (int j = 1; j < k; ++j) {
            float d = squared_distance(p, c + j * kDims, kDims);
            if (d < best_d) {
                best_d = d;
                best = j;
            }
        }
        labels[i] = best;
        atomicAdd(&counts[best], 1);
        for (int d = 0; d < kDims; ++d) atomicAdd(&sums[best * kDims + d], p[d]);
    }
}

__global__ void update(float* centroids, const float* sums, const int* counts, int k)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < k * kDims) {
        int cluster = t / kDims;
        if (counts[cluster] > 0) centroids[t] = sums[t] / counts[cluster];
    }
}

int main()
{
    const int n = 20000, k = 8;
    std::vector<float> points(n * kDims), centroids(k * kDims);
    for (int i = 0; i < n; ++i)
        for (int d = 0; d < kDims; ++d) points[i * kDims + d] = static_cast<float>((i % k) * 10 + (i * 7 + d) % 3);
    for (int j = 0; j < k * kDims; ++j) centroids[j] = points[j];

    DeviceBuffer<float> d_points(points.size()), d_centroids(centroids.size()), d_sums(k * kDims);
    DeviceBuffer<int> d_labels(n), d_counts(k);
    d_points.upload(points.data());
    d_centroids.upload(centroids.data());

    for (int iter = 0; iter < 5; ++iter) {
        d_sums.zero();
        d_counts.zero();
        assign<<<blocks_for(n, 256), 256>>>(d_points.get(), d_centroids.get(), n, k, d_labels.get(),
                                            d_sums.get(), d_counts.get());
        CUDA_CHECK(cudaGetLastError());
        update<<<1, k * kDims>>>(d_centroids.get(), d_sums.get(), d_counts.get(), k);
    }
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<int> counts(k);
    d_counts.download(counts.data());
    std::printf("cluster sizes:");
    for (int c : counts) std::printf(" %d", c);
    std::printf("\n");
    return 0;
}
