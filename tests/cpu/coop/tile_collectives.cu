// cg::reduce, the scans, tile votes and coalesced_threads() inside a branch, checked on the host.
#include <cstdio>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

constexpr int kThreads = 64, kTile = 16, kFields = 9;

__global__ void collectives(int* out)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<kTile> tile = cg::tiled_partition<kTile>(block);
    const int v = static_cast<int>(block.thread_rank()) + 1;
    int* mine = out + block.thread_rank() * kFields;
    mine[0] = cg::reduce(tile, v, cg::plus<int>());
    mine[1] = cg::reduce(tile, v, cg::greater<int>());
    mine[2] = cg::reduce(tile, v, cg::less<int>());
    mine[3] = cg::inclusive_scan(tile, v);
    mine[4] = cg::exclusive_scan(tile, v);
    mine[5] = static_cast<int>(tile.ballot(v % 3 == 0));
    mine[6] = tile.any(v == 5) * 10 + tile.all(v > 0);
    mine[7] = tile.shfl_xor(v, 1);
    mine[8] = -1;
    if (v % 4 == 0) {
        cg::coalesced_group active = cg::coalesced_threads();
        mine[8] = static_cast<int>(active.size()) * 100 + static_cast<int>(active.thread_rank());
    }
}

int main()
{
    int* d = nullptr;
    cudaMalloc(&d, kThreads * kFields * sizeof(int));
    collectives<<<1, kThreads>>>(d);
    int h[kThreads * kFields];
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    int wrong = 0;
    for (int t = 0; t < kThreads; ++t) {
        const int base = t / kTile * kTile, v = t + 1;
        int sum = 0, inc = 0, exc = 0, ballot = 0;
        for (int r = 0; r < kTile; ++r) {
            const int w = base + r + 1;
            sum += w;
            if (r <= t - base) inc += w;
            if (r < t - base) exc += w;
            if (w % 3 == 0) ballot |= 1 << r;
        }
        const int warp_lanes = 32 < kThreads ? 32 : kThreads;
        const int want[kFields] = {sum, base + kTile, base + 1, inc, exc, ballot,
                                   (base < 5 && 5 <= base + kTile) * 10 + 1, (t ^ 1) + 1,
                                   v % 4 == 0 ? warp_lanes / 4 * 100 + (t % warp_lanes) / 4 : -1};
        for (int f = 0; f < kFields; ++f) {
            if (h[t * kFields + f] != want[f]) {
                if (wrong++ < 5) std::printf("thread %d field %d: %d, want %d\n", t, f, h[t * kFields + f], want[f]);
            }
        }
    }
    std::printf("%d of %d values wrong\n", wrong, kThreads * kFields);
    cudaFree(d);
    return wrong == 0 ? 0 : 1;
}
