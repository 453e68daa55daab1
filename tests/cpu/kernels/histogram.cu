// Histogram with shared-memory atomics merged into global atomics, plus the other atomic kinds.
#include <cstdio>
#include <cuda_runtime.h>

#define BINS 64

__global__ void histogram(const unsigned char* data, int n, unsigned* bins) {
  __shared__ unsigned local[BINS];
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&local[data[i] % BINS], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) atomicAdd(&bins[b], local[b]);
}

struct Results {
  int imin, imax, iand, ior, ixor, cas_wins, lock_count;
  unsigned umax, inc, exch_sum;
  float fsum;
  double dsum;
  unsigned long long ull;
};

__global__ void atomics(Results* r, int* lock) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  atomicMin(&r->imin, 1000 - t);
  atomicMax(&r->imax, t * 3);
  atomicMax(&r->umax, (unsigned)t * 7u);
  atomicAnd(&r->iand, ~(1 << (t % 8)));
  atomicOr(&r->ior, 1 << (t % 16));
  atomicXor(&r->ixor, t);
  atomicInc(&r->inc, 99u);
  atomicAdd(&r->fsum, 0.5f);
  atomicAdd(&r->dsum, 0.25);
  atomicAdd(&r->ull, 1ull << 33);
  atomicExch(&r->exch_sum, (unsigned)t);
  if (atomicCAS(&r->cas_wins, 0, t + 1) == 0) atomicAdd(&r->lock_count, 0);
  // A spin lock shared by all blocks (CAS to take it, exchange to release it).
  if (threadIdx.x % 32 == 0) {
    while (atomicCAS(lock, 0, 1) != 0) {
    }
    r->lock_count += 1;
    __threadfence();
    atomicExch(lock, 0);
  }
}

int main() {
  const int n = 1 << 16;
  static unsigned char data[n];
  for (int i = 0; i < n; ++i) data[i] = (unsigned char)((i * 7919u) >> 3);
  unsigned char* ddata;
  unsigned* dbins;
  cudaMalloc(&ddata, n);
  cudaMalloc(&dbins, BINS * sizeof(unsigned));
  cudaMemcpy(ddata, data, n, cudaMemcpyHostToDevice);
  cudaMemset(dbins, 0, BINS * sizeof(unsigned));
  histogram<<<16, 128>>>(ddata, n, dbins);
  unsigned bins[BINS];
  cudaMemcpy(bins, dbins, sizeof bins, cudaMemcpyDeviceToHost);
  for (int b = 0; b < BINS; ++b) printf("bin %d %u\n", b, bins[b]);

  Results h = {1 << 30, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0.0f, 0.0, 0};
  Results* dr;
  int* dlock;
  cudaMalloc(&dr, sizeof h);
  cudaMalloc(&dlock, sizeof(int));
  cudaMemset(dlock, 0, sizeof(int));
  cudaMemcpy(dr, &h, sizeof h, cudaMemcpyHostToDevice);
  atomics<<<8, 128>>>(dr, dlock);
  cudaMemcpy(&h, dr, sizeof h, cudaMemcpyDeviceToHost);
  printf("imin=%d imax=%d umax=%u iand=%d ior=%d ixor=%d inc=%u fsum=%.1f dsum=%.2f ull=%llu cas=%d lock=%d\n",
         h.imin, h.imax, h.umax, h.iand, h.ior, h.ixor, h.inc, h.fsum, h.dsum, h.ull, h.cas_wins > 0,
         h.lock_count);
  return 0;
}
