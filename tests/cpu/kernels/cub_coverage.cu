// CUB's API on the CPU runner beyond cub_stats: each check compares with the same computation on
// the host and prints "ok NAME" or "BAD NAME".
#include <algorithm>
#include <limits>
#include <cstdio>
#include <vector>

#include <cub/cub.cuh>

#define CHECK(call)                                                                       \
    do {                                                                                  \
        cudaError_t e_ = (call);                                                          \
        if (e_ != cudaSuccess) {                                                          \
            std::printf("BAD %s: %s\n", #call, cudaGetErrorString(e_));                  \
            return 1;                                                                     \
        }                                                                                 \
    } while (0)

constexpr int kThreads = 128;
constexpr int kItems = 4;

static int bad = 0;
static void report(const char* name, bool ok)
{
    std::printf("%s %s\n", ok ? "ok" : "BAD", name);
    bad += !ok;
}

struct RunningPrefix {
    int total;
    __device__ int operator()(int block_aggregate)
    {
        int old = total;
        total += block_aggregate;
        return old;
    }
};

struct IsOdd {
    __host__ __device__ bool operator()(int x) const { return x & 1; }
};

// two tiles per block: BlockScan with a running prefix, BlockRadixSort, BlockLoad/Store striped
__global__ void block_kernel(const int* in, int* scanned, int* sorted, int* aggregates, int n)
{
    using Load = cub::BlockLoad<int, kThreads, kItems, cub::BLOCK_LOAD_STRIPED>;
    using Store = cub::BlockStore<int, kThreads, kItems, cub::BLOCK_STORE_STRIPED>;
    using Scan = cub::BlockScan<int, kThreads, cub::BLOCK_SCAN_WARP_SCANS>;
    using Sort = cub::BlockRadixSort<int, kThreads, kItems>;
    __shared__ union {
        typename Load::TempStorage load;
        typename Store::TempStorage store;
        typename Scan::TempStorage scan;
        typename Sort::TempStorage sort;
    } temp;
    RunningPrefix prefix{0};
    const int tile = kThreads * kItems;
    for (int t = 0; t < 2; ++t) {
        const int offset = (blockIdx.x * 2 + t) * tile;
        int items[kItems];
        Load(temp.load).Load(in + offset, items, n - offset, 0);
        __syncthreads();
        int out[kItems];
        Scan(temp.scan).InclusiveSum(items, out, prefix);
        __syncthreads();
        Store(temp.store).Store(scanned + offset, out, n - offset);
        __syncthreads();
        int keys[kItems];
        cub::LoadDirectBlocked(threadIdx.x, in + offset, keys);
        Sort(temp.sort).SortDescending(keys);
        __syncthreads();
        cub::StoreDirectBlocked(threadIdx.x, sorted + offset, keys);
    }
    int aggregate;
    int x = in[blockIdx.x * kThreads + threadIdx.x], y;
    Scan(temp.scan).ExclusiveScan(x, y, 10, cub::Max(), aggregate);
    if (threadIdx.x == kThreads - 1) aggregates[blockIdx.x] = aggregate + y;
}

// WarpScan: inclusive sums and a broadcast of lane 3
__global__ void warp_kernel(const int* in, int* inclusive, int* broadcast)
{
    using WarpScan = cub::WarpScan<int, 16>;
    __shared__ typename WarpScan::TempStorage temp[kThreads / 16];
    const int i = blockIdx.x * kThreads + threadIdx.x;
    int sum;
    WarpScan(temp[threadIdx.x / 16]).InclusiveSum(in[i], sum);
    inclusive[i] = sum;
    broadcast[i] = WarpScan(temp[threadIdx.x / 16]).Broadcast(in[i], 3);
}

// a 256-thread BlockReduce in a smaller block: undefined on a GPU (the missing threads' part is unwritten)
__global__ void wrong_block_kernel(const int* in, int* out)
{
    using Reduce = cub::BlockReduce<int, 2 * kThreads>;
    __shared__ typename Reduce::TempStorage temp;
    int sum = Reduce(temp).Sum(in[threadIdx.x]);
    if (threadIdx.x == 0) *out = sum;
}

int main(int argc, char** argv)
{
    const int n = 8 * kThreads * kItems;  // 4 blocks of 2 tiles
    std::vector<int> h(n);
    for (int i = 0; i < n; ++i) h[i] = (i * 7919) % 1009 - 500;
    int *d_in, *d_a, *d_b, *d_c, *d_count;
    CHECK(cudaMalloc(&d_in, n * sizeof(int)));
    CHECK(cudaMalloc(&d_a, n * sizeof(int)));
    CHECK(cudaMalloc(&d_b, n * sizeof(int)));
    CHECK(cudaMalloc(&d_c, n * sizeof(int)));
    CHECK(cudaMalloc(&d_count, sizeof(int)));
    CHECK(cudaMemcpy(d_in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    std::vector<int> a(n), b(n), c(n);
    auto fetch = [&](std::vector<int>& v, const int* d, int count) {
        v.assign(count, 0);
        cudaMemcpy(v.data(), d, count * sizeof(int), cudaMemcpyDeviceToHost);
    };
    int count = 0;

    block_kernel<<<4, kThreads>>>(d_in, d_a, d_b, d_c, n);
    fetch(a, d_a, n);
    fetch(b, d_b, n);
    fetch(c, d_c, 4);
    bool scan_ok = true, sort_ok = true, agg_ok = true;
    const int tile = kThreads * kItems;
    for (int blk = 0; blk < 4; ++blk) {
        int run = 0;
        for (int t = 0; t < 2; ++t) {
            const int offset = (blk * 2 + t) * tile;
            // striped: thread r holds items r, r + kThreads, ...; the scan runs in blocked order over
            // the thread's own items, so the host walks thread by thread
            for (int r = 0; r < kThreads; ++r)
                for (int k = 0; k < kItems; ++k) {
                    run += h[offset + k * kThreads + r];
                    scan_ok &= a[offset + k * kThreads + r] == run;
                }
            std::vector<int> want(h.begin() + offset, h.begin() + offset + tile);
            std::sort(want.begin(), want.end(), [](int x, int y) { return x > y; });
            sort_ok &= std::equal(want.begin(), want.end(), b.begin() + offset);
        }
        int mx = 10, total = h[blk * kThreads];
        for (int r = 0; r < kThreads - 1; ++r) mx = std::max(mx, h[blk * kThreads + r]);
        for (int r = 1; r < kThreads; ++r) total = std::max(total, h[blk * kThreads + r]);
        agg_ok &= c[blk] == total + mx;
    }
    report("BlockLoad/BlockScan/BlockStore striped with a running prefix", scan_ok);
    report("BlockRadixSort descending", sort_ok);
    report("BlockScan ExclusiveScan with a seed and an aggregate", agg_ok);

    warp_kernel<<<n / kThreads, kThreads>>>(d_in, d_a, d_b);
    fetch(a, d_a, n);
    fetch(b, d_b, n);
    bool warp_ok = true;
    for (int i = 0; i < n; ++i) {
        int s = 0;
        for (int j = i - i % 16; j <= i; ++j) s += h[j];
        warp_ok &= a[i] == s && b[i] == h[i - i % 16 + 3];
    }
    report("WarpScan InclusiveSum and Broadcast (16 lanes)", warp_ok);

    void* d_temp = nullptr;
    size_t bytes = 0;
    CHECK(cub::DeviceSelect::If(d_temp, bytes, d_in, d_a, d_count, n, IsOdd()));
    CHECK(cudaMalloc(&d_temp, bytes));
    CHECK(cub::DeviceSelect::If(d_temp, bytes, d_in, d_a, d_count, n, IsOdd()));
    cudaMemcpy(&count, d_count, sizeof(int), cudaMemcpyDeviceToHost);
    fetch(a, d_a, count);
    std::vector<int> odd;
    for (int x : h) if (x & 1) odd.push_back(x);
    report("DeviceSelect::If", a == odd);

    CHECK(cub::DevicePartition::If(d_temp, bytes, d_in, d_a, d_count, n, IsOdd()));
    fetch(a, d_a, n);
    std::vector<int> parted(odd);
    for (int i = n - 1; i >= 0; --i) if (!(h[i] & 1)) parted.push_back(h[i]);
    report("DevicePartition::If (rejected items reversed)", a == parted);

    std::vector<int> runs_in(n);
    for (int i = 0; i < n; ++i) runs_in[i] = (i / 3) % 5;
    CHECK(cudaMemcpy(d_c, runs_in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cub::DeviceRunLengthEncode::Encode(d_temp, bytes, d_c, d_a, d_b, d_count, n));
    cudaMemcpy(&count, d_count, sizeof(int), cudaMemcpyDeviceToHost);
    fetch(a, d_a, count);
    fetch(b, d_b, count);
    bool rle_ok = count == (n + 2) / 3;
    for (int r = 0; rle_ok && r < count; ++r) rle_ok = a[r] == r % 5 && b[r] == std::min(3, n - 3 * r);
    report("DeviceRunLengthEncode::Encode", rle_ok);

    CHECK(cub::DeviceSelect::Unique(d_temp, bytes, d_c, d_a, d_count, n));
    cudaMemcpy(&count, d_count, sizeof(int), cudaMemcpyDeviceToHost);
    report("DeviceSelect::Unique", count == (n + 2) / 3);

    const int bins = 10;
    CHECK(cub::DeviceHistogram::HistogramEven(d_temp, bytes, d_in, d_a, bins + 1, -500, 500, n));
    fetch(a, d_a, bins);
    std::vector<int> hist(bins, 0);
    for (int x : h) if (x >= -500 && x < 500) ++hist[(x + 500) * bins / 1000];
    report("DeviceHistogram::HistogramEven", a == hist);

    std::vector<int> offsets = {0, 100, 100, 1000, n};
    int* d_offsets;
    CHECK(cudaMalloc(&d_offsets, offsets.size() * sizeof(int)));
    CHECK(cudaMemcpy(d_offsets, offsets.data(), offsets.size() * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cub::DeviceSegmentedReduce::Max(d_temp, bytes, d_in, d_a, 4, d_offsets, d_offsets + 1));
    fetch(a, d_a, 4);
    bool seg_ok = a[1] == std::numeric_limits<int>::lowest();
    for (int s : {0, 2, 3}) seg_ok &= a[s] == *std::max_element(h.begin() + offsets[s], h.begin() + offsets[s + 1]);
    report("DeviceSegmentedReduce::Max (an empty segment)", seg_ok);

    CHECK(cub::DeviceSegmentedRadixSort::SortKeys(d_temp, bytes, d_in, d_a, n, 4, d_offsets, d_offsets + 1));
    fetch(a, d_a, n);
    std::vector<int> segsorted(h);
    for (int s = 0; s < 4; ++s) std::sort(segsorted.begin() + offsets[s], segsorted.begin() + offsets[s + 1]);
    report("DeviceSegmentedRadixSort::SortKeys (signed keys)", a == segsorted);

    CHECK(cub::DeviceScan::InclusiveScan(d_temp, bytes, d_in, d_a, cub::Max(), n));
    fetch(a, d_a, n);
    bool max_ok = true;
    for (int i = 0, m = h[0]; i < n; ++i) max_ok &= a[i] == (m = std::max(m, h[i]));
    report("DeviceScan::InclusiveScan with cub::Max", max_ok);

    cub::DoubleBuffer<int> keys(d_a, d_b);
    CHECK(cudaMemcpy(d_a, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cub::DeviceRadixSort::SortKeys(d_temp, bytes, keys, n));
    fetch(a, keys.Current(), n);
    std::vector<int> all(h);
    std::sort(all.begin(), all.end());
    report("DeviceRadixSort::SortKeys on a DoubleBuffer", a == all);

    size_t too_small = 1;
    report("a temporary storage smaller than asked for is refused",
           cub::DeviceReduce::Sum(d_temp, too_small, d_in, d_a, n) == cudaErrorInvalidValue);
    std::printf("%d bad\n", bad);
    if (argc > 1) {  // "wrong-block"
        wrong_block_kernel<<<1, kThreads>>>(d_in, d_a);
        CHECK(cudaDeviceSynchronize());
    }
    return bad != 0;
}
