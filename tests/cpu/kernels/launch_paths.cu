// The paths a launch takes on the CPU runtime: a barrier-free kernel as a plain loop over each
// block's threads, a kernel whose blocks reach a barrier only sometimes, warps whose first lanes
// have exited before the others shuffle, atomics from blocks running in parallel, and a dropped
// barrier before a read of the lower-index thread's shared store, and the order threads of 3-D
// blocks run in.
// Usage: launch_paths {plain|mixed|shuffle|atomics|shift|walk} [n]
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define BLOCK 256
#define BINS 97

__global__ void axpy(int n, int a, const int* x, int* y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) y[i] = a * x[i] + y[i];
}

// Odd blocks rotate their tile through shared memory (a barrier); even blocks only scale.
__global__ void rotate_odd_blocks(const int* in, int* out) {
  __shared__ int tile[BLOCK];
  int t = threadIdx.x, g = blockIdx.x * BLOCK + t;
  if (blockIdx.x % 2 == 0) {
    out[g] = 2 * in[g];
    return;
  }
  tile[t] = in[g];
  __syncthreads();
  out[g] = tile[(t + 1) % BLOCK];
}

// The first warp leaves at once; each other warp sums its lanes with shuffles.
__global__ void warp_sums_after_exit(const int* in, int* sums) {
  int t = threadIdx.x, g = blockIdx.x * BLOCK + t;
  if (t < 32) return;
  int v = in[g];
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  if (t % 32 == 0) sums[blockIdx.x * (BLOCK / 32) + t / 32] = v;
}

// Global atomics from every thread and a lock taken by one lane of each warp: no barrier, so
// blocks run as plain loops on several workers at once.
__global__ void global_histogram(int n, const int* data, unsigned* bins, int* lock, long long* guarded) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  atomicAdd(&bins[data[i] % BINS], 1u);
  if (threadIdx.x % 32 == 0) {
    while (atomicCAS(lock, 0, 1) != 0) {
    }
    *guarded += data[i];  // a plain update, made safe by the lock
    __threadfence();
    atomicExch(lock, 0);
  }
}

__global__ void shift_synced(int* out) {
  __shared__ int s[BLOCK];
  int t = threadIdx.x;
  s[t] = t * 3 + blockIdx.x;
  __syncthreads();
  out[blockIdx.x * BLOCK + t] = t > 0 ? s[t - 1] : -1;
}

// shift_synced with its barrier dropped: right only when lower threads happen to run first.
__global__ void shift_unsynced(int* out) {
  __shared__ int s[BLOCK];
  int t = threadIdx.x;
  s[t] = t * 3 + blockIdx.x;
  out[blockIdx.x * BLOCK + t] = t > 0 ? s[t - 1] : -1;
}

// Each thread's place in its block's run order and its indices, in 3-D blocks (not a whole warp)
// of a 3-D grid; the blocks with blockIdx.x == 1 then reach a barrier and go on as fibers, and
// each thread takes a place again.
__global__ void run_order_3d(int* places, int* order, int* index, int* order_after) {
  int block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  int t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  int g = block * blockDim.x * blockDim.y * blockDim.z + t;
  order[g] = atomicAdd(&places[block], 1);
  index[g] = threadIdx.x + 8 * threadIdx.y + 64 * threadIdx.z + 512 * (blockIdx.x + 4 * blockIdx.y + 16 * blockIdx.z);
  if (blockIdx.x == 1) __syncthreads();
  order_after[g] = atomicAdd(&places[block], 1);
}

static void print_ints(const char* name, const int* d, int n) {
  int* h = (int*)malloc(n * sizeof(int));
  cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost);
  printf("%s=", name);
  for (int i = 0; i < n; ++i) printf("%s%d", i ? "," : "", h[i]);
  printf("\n");
  free(h);
}

static int* device_copy(const int* host, int n) {
  int* d;
  cudaMalloc(&d, n * sizeof(int));
  cudaMemcpy(d, host, n * sizeof(int), cudaMemcpyHostToDevice);
  return d;
}

static long long weighted(const int* d, int n) {
  int* h = (int*)malloc(n * sizeof(int));
  cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost);
  long long s = 0;
  for (int i = 0; i < n; ++i) s += (long long)h[i] * (i % 13 + 1);
  free(h);
  return s;
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "plain";
  int n = argc > 2 ? atoi(argv[2]) : (1 << 20);
  int* host = (int*)malloc(n * sizeof(int));
  for (int i = 0; i < n; ++i) host[i] = (i * 7 + 3) % 1000;
  int* x = device_copy(host, n);
  int* y;
  cudaMalloc(&y, n * sizeof(int));
  cudaMemset(y, 0, n * sizeof(int));
  const int blocks = n / BLOCK;
  if (!strcmp(mode, "plain")) {
    axpy<<<blocks / 4, BLOCK>>>(n, 3, x, y);
    printf("weighted=%lld\n", weighted(y, n));
  } else if (!strcmp(mode, "mixed")) {
    rotate_odd_blocks<<<blocks, BLOCK>>>(x, y);
    printf("weighted=%lld\n", weighted(y, n));
  } else if (!strcmp(mode, "shuffle")) {
    warp_sums_after_exit<<<blocks, BLOCK>>>(x, y);
    printf("weighted=%lld\n", weighted(y, blocks * (BLOCK / 32)));
  } else if (!strcmp(mode, "atomics")) {
    unsigned* bins;
    int* lock;
    long long* guarded;
    cudaMalloc(&bins, BINS * sizeof(unsigned));
    cudaMalloc(&lock, sizeof(int));
    cudaMalloc(&guarded, sizeof(long long));
    cudaMemset(bins, 0, BINS * sizeof(unsigned));
    cudaMemset(lock, 0, sizeof(int));
    cudaMemset(guarded, 0, sizeof(long long));
    global_histogram<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(n, x, bins, lock, guarded);
    unsigned h[BINS];
    long long g = 0;
    cudaMemcpy(h, bins, sizeof h, cudaMemcpyDeviceToHost);
    cudaMemcpy(&g, guarded, sizeof g, cudaMemcpyDeviceToHost);
    for (int b = 0; b < BINS; ++b) printf("bin%d=%u\n", b, h[b]);
    printf("guarded=%lld\n", g);
  } else if (!strcmp(mode, "walk")) {
    const dim3 grid(3, 2, 2), block(5, 3, 2);
    const int blocks3d = 3 * 2 * 2, threads = blocks3d * 5 * 3 * 2;
    int *places, *order, *index, *after;
    cudaMalloc(&places, blocks3d * sizeof(int));
    cudaMalloc(&order, threads * sizeof(int));
    cudaMalloc(&index, threads * sizeof(int));
    cudaMalloc(&after, threads * sizeof(int));
    cudaMemset(places, 0, blocks3d * sizeof(int));
    run_order_3d<<<grid, block>>>(places, order, index, after);
    print_ints("order", order, threads);
    print_ints("index", index, threads);
    print_ints("after", after, threads);
  } else {
    shift_synced<<<8, BLOCK>>>(y);
    printf("synced=%lld\n", weighted(y, 8 * BLOCK));
    shift_unsynced<<<8, BLOCK>>>(y);
    printf("unsynced=%lld\n", weighted(y, 8 * BLOCK));
  }
  return 0;
}
