// Programs that need what a GPU gives each thread and block: big local arrays in 1024-thread
// blocks, a full 48 KiB static __shared__ array, deep device recursion, a device-side assert,
// kernels launched from several host threads at once, and invalid accesses. `limits MODE [N]`
// (tests/cpu/test_runtime_coverage.py).
#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>
#include <cuda_runtime.h>

constexpr int kLocal = 4096;              // 16 KiB of local memory per thread
constexpr int kTile = 48 * 1024 / 4;      // all the static shared memory a block may have

__global__ void big_locals(float* out) {
  float acc[kLocal];
  __shared__ float tile[kTile];
  unsigned t = threadIdx.x;
  for (int i = 0; i < kLocal; ++i) acc[i] = static_cast<float>((i * 7 + t) % 13);
  for (unsigned i = t; i < kTile; i += blockDim.x) tile[i] = 1.0f;
  __syncthreads();
  float sum = 0.0f;
  for (int i = 0; i < kLocal; ++i) sum += acc[(i * 31) % kLocal];
  for (unsigned i = 0; i < 12; ++i) sum += tile[(t + i * blockDim.x) % kTile];
  out[blockIdx.x * blockDim.x + t] = sum;
}

// One frame of 128 KiB, more than the guard below a fiber's stack: run with a small
// CASS_CPU_STACK_KB it must reach the guard (the build probes big frames page by page) rather than
// write past it into another thread's stack.
__global__ void one_big_frame(float* out, int n) {
  float acc[32768];
  for (int i = 0; i < n; ++i) acc[i] = static_cast<float>(i + threadIdx.x);
  out[threadIdx.x] = acc[(n - 1) % 32768];
}

__device__ int depth_sum(int n) {
  volatile int frame[64];  // read after the call: no tail call, every level keeps its frame
  frame[n % 64] = 1;
  if (n == 0) return 0;
  int below = depth_sum(n - 1);
  return below + frame[n % 64];
}

__global__ void recurse(int* out, int n) { out[threadIdx.x] = depth_sum(n); }

__global__ void add_to(int* d, int v) {
  d[blockIdx.x * blockDim.x + threadIdx.x] += v;
  __syncthreads();
}

__global__ void poke(int* p) { p[threadIdx.x] = 1; }

// Block (bx,by,0)'s threads write through `bad`, the others' to their own int of `out`:
// barrier-free and reading no memory, the shape whose per-thread stores g++ sinks out of the
// plain loop (the fault handler's clue to the thread).
__global__ void poke_block(int* bad, int* out, unsigned bx, unsigned by) {
  unsigned size = blockDim.x * blockDim.y * blockDim.z, block = blockIdx.x + gridDim.x * blockIdx.y;
  int* p = blockIdx.x == bx && blockIdx.y == by ? bad : out + block * size;
  p[threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)] = 1;
}

__global__ void checked(int* out, int limit) {
  assert(static_cast<int>(threadIdx.x) < limit);
  out[threadIdx.x] = 1;
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "locals";
  int n = argc > 2 ? std::atoi(argv[2]) : 0;
  if (std::strcmp(mode, "locals") == 0) {
    const int blocks = 16, threads = 1024;  // enough blocks to keep every worker thread busy
    float* out;
    cudaMalloc(&out, blocks * threads * sizeof(float));
    big_locals<<<blocks, threads>>>(out);
    float* host = static_cast<float*>(std::malloc(blocks * threads * sizeof(float)));
    cudaMemcpy(host, out, blocks * threads * sizeof(float), cudaMemcpyDeviceToHost);
    double total = 0;
    for (int i = 0; i < blocks * threads; ++i) total += host[i];
    printf("locals_error=%s\n", cudaGetErrorName(cudaGetLastError()));
    printf("locals_total=%.0f\n", total);
    std::free(host);
    cudaFree(out);
  } else if (std::strcmp(mode, "frame") == 0) {
    float* out;
    cudaMalloc(&out, 64 * sizeof(float));
    one_big_frame<<<1, 64>>>(out, 32768);
    float last = 0;
    cudaMemcpy(&last, out + 63, sizeof last, cudaMemcpyDeviceToHost);
    printf("frame=%.0f\n", last);
    cudaFree(out);
  } else if (std::strcmp(mode, "threads") == 0) {
    // One host thread per "device", as multi-GPU programs are written, all launching at once.
    const int n = 64 * 128, hosts = 4, rounds = 50;
    int per_element[hosts] = {};
    std::vector<std::thread> threads;
    for (int h = 0; h < hosts; ++h) {
      threads.emplace_back([&per_element, h] {
        int* d;
        cudaMalloc(&d, n * sizeof(int));
        cudaMemset(d, 0, n * sizeof(int));
        for (int r = 0; r < rounds; ++r) add_to<<<64, 128>>>(d, h + 1);
        cudaDeviceSynchronize();
        std::vector<int> host(n);
        cudaMemcpy(host.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost);
        long long sum = 0;
        for (int v : host) sum += v;
        per_element[h] = static_cast<int>(sum / n);
        cudaFree(d);
      });
    }
    for (std::thread& t : threads) t.join();
    printf("threads=%d,%d,%d,%d\n", per_element[0], per_element[1], per_element[2], per_element[3]);
  } else if (std::strcmp(mode, "poke") == 0) {
    // An address no allocation has (N, 0 for a null pointer): a GPU reports an illegal address.
    poke<<<1, 32>>>(reinterpret_cast<int*>(static_cast<size_t>(n)));
    printf("poke=%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  } else if (std::strcmp(mode, "poke_block") == 0 || std::strcmp(mode, "poke_row") == 0) {
    // 3-D blocks of a 2-D grid, block (1,2,0) faulting, or 1-D ones, block (2,0,0) faulting
    bool cube = std::strcmp(mode, "poke_block") == 0;
    int* out;
    cudaMalloc(&out, 6 * 32 * sizeof(int));
    int* bad = reinterpret_cast<int*>(static_cast<size_t>(n));
    if (cube) poke_block<<<dim3(2, 3), dim3(4, 4, 2)>>>(bad, out, 1, 2);
    else poke_block<<<6, 32>>>(bad, out, 2, 0);
    printf("%s=%s\n", mode, cudaGetErrorName(cudaDeviceSynchronize()));
  } else if (std::strcmp(mode, "recurse") == 0) {
    int* out;
    cudaMalloc(&out, 32 * sizeof(int));
    recurse<<<1, 32>>>(out, n);
    int first = -1;
    cudaMemcpy(&first, out, sizeof first, cudaMemcpyDeviceToHost);
    printf("recurse=%d\n", first);
    cudaFree(out);
  } else {
    int* out;
    cudaMalloc(&out, 64 * sizeof(int));
    checked<<<2, 32>>>(out, n);
    cudaError_t sync = cudaDeviceSynchronize();
    printf("assert_sync=%s\n", cudaGetErrorName(sync));
    printf("assert_string=%s\n", cudaGetErrorString(sync));
    int host = 0;
    printf("assert_memcpy=%s\n", cudaGetErrorName(cudaMemcpy(&host, out, sizeof host, cudaMemcpyDeviceToHost)));
    printf("assert_last=%s\n", cudaGetErrorName(cudaGetLastError()));
    return sync == cudaSuccess ? 0 : 1;
  }
  return 0;
}
