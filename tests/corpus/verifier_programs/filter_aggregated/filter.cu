// Stream compaction (keep x where x % divisor == 0) with warp-aggregated atomics: one atomicAdd per warp.
// The output order depends on which warp reserves first, so the host sorts it before checking.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <chrono>
#include <vector>

#define BLOCK 256

__device__ int reserve_slot(int* counter, bool take) {
  unsigned active = __ballot_sync(0xffffffff, take);
  if (!take) return -1;
  int lane = threadIdx.x % warpSize;
  int leader = __ffs(active) - 1;
  int base = 0;
  if (lane == leader) base = atomicAdd(counter, __popc(active));
  base = __shfl_sync(active, base, leader);
  unsigned lower = active & ((1u << lane) - 1);
  return base + __popc(lower);
}

__global__ void filter_multiples(const int* in, int n, int divisor, int* out, int* count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 1;
  bool keep = i < n && v % divisor == 0;
  int slot = reserve_slot(count, keep);
  if (slot >= 0) out[slot] = v;
}

int main(int argc, char** argv) {
  int n = argc > 1 ? atoi(argv[1]) : 50000;
  int divisor = argc > 2 ? atoi(argv[2]) : 3;
  std::vector<int> in(n);
  for (int i = 0; i < n; i++) in[i] = (int)((i * 1103515245u + 12345u) >> 8) % 100000;
  int *d_in, *d_out, *d_count;
  cudaMalloc(&d_in, n * sizeof(int));
  cudaMalloc(&d_out, n * sizeof(int));
  cudaMalloc(&d_count, sizeof(int));
  cudaMemset(d_count, 0, sizeof(int));
  cudaMemcpy(d_in, in.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  auto t0 = std::chrono::steady_clock::now();
  filter_multiples<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(d_in, n, divisor, d_out, d_count);
  cudaDeviceSynchronize();
  auto t1 = std::chrono::steady_clock::now();
  int count = 0;
  cudaMemcpy(&count, d_count, sizeof(int), cudaMemcpyDeviceToHost);
  std::vector<int> out(std::max(count, 0));
  if (count > 0 && count <= n) cudaMemcpy(out.data(), d_out, count * sizeof(int), cudaMemcpyDeviceToHost);
  std::sort(out.begin(), out.end());

  std::vector<int> ref;
  for (int v : in)
    if (v % divisor == 0) ref.push_back(v);
  std::sort(ref.begin(), ref.end());
  long long sum = 0;
  for (int v : out) sum += v;
  printf("kept %d of %d (host %zu)\n", count, n, ref.size());
  printf("smallest %d, largest %d, sum %lld\n", out.empty() ? -1 : out.front(), out.empty() ? -1 : out.back(), sum);
  double sec = std::chrono::duration<double>(t1 - t0).count();
  printf("filter: %.4f s, %.2f Melem/s\n", sec, n / sec / 1e6);
  bool ok = out == ref;
  printf("%s\n", ok ? "PASS" : "FAIL");
  cudaFree(d_in);
  cudaFree(d_out);
  cudaFree(d_count);
  return ok ? 0 : 1;
}
