// Stream-ordered allocation as streamOrderedAllocation (cuda-samples) and real programs use it:
// the default pool and its release threshold, a pool of the program's own, the attributes they read.
#include <cstdint>
#include <cstdio>
#include <cuda_runtime.h>

__global__ void add(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

static unsigned long long attr(cudaMemPool_t pool, cudaMemPoolAttr a) {
  uint64_t v = 0;
  if (cudaMemPoolGetAttribute(pool, a, &v) != cudaSuccess) return ~0ull;
  return (unsigned long long)v;
}
static void show(const char* when, cudaMemPool_t pool) {
  printf("%s: reserved %llu high %llu used %llu high %llu\n", when, attr(pool, cudaMemPoolAttrReservedMemCurrent),
         attr(pool, cudaMemPoolAttrReservedMemHigh), attr(pool, cudaMemPoolAttrUsedMemCurrent),
         attr(pool, cudaMemPoolAttrUsedMemHigh));
}

int main() {
  const int n = 1000;  // 4000 bytes: 4096 in the pool
  float h[n], out[n];
  for (int i = 0; i < n; ++i) h[i] = 0.5f * i;
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cudaMemPool_t pool, current;
  printf("default %d ", (int)cudaDeviceGetDefaultMemPool(&pool, 0));
  printf("current %d\n", (int)cudaDeviceGetMemPool(&current, 0));
  printf("same %d ", pool == current);
  printf("bad device %d\n", (int)cudaDeviceGetDefaultMemPool(&current, 1));
  cudaGetLastError();

  float *a, *b, *c;
  cudaMallocAsync(&a, n * sizeof(float), s);
  cudaMallocAsync(&b, n * sizeof(float), s);
  cudaMallocAsync((void**)&c, n * sizeof(float), s);
  show("three", pool);
  cudaMemcpyAsync(a, h, sizeof h, cudaMemcpyHostToDevice, s);
  cudaMemcpyAsync(b, h, sizeof h, cudaMemcpyHostToDevice, s);
  add<<<(n + 255) / 256, 256, 0, s>>>(a, b, c, n);
  cudaFreeAsync(a, s);
  cudaFreeAsync(b, s);
  cudaMemcpyAsync(out, c, sizeof out, cudaMemcpyDeviceToHost, s);
  cudaFreeAsync(c, s);
  show("freed", pool);  // the pool keeps what was freed until a synchronize
  cudaStreamSynchronize(s);
  show("synced", pool);  // release threshold 0: all of it back to the system
  printf("out[999] %.1f\n", out[999]);

  uint64_t keep = UINT64_MAX;
  printf("threshold %d\n", (int)cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep));
  printf("threshold reads %llu\n", attr(pool, cudaMemPoolAttrReleaseThreshold));
  for (int it = 0; it < 3; ++it) {  // steady state: the same block each time, nothing new reserved
    float* d;
    cudaMallocAsync(&d, n * sizeof(float), s);
    cudaFreeAsync(d, s);
    cudaStreamSynchronize(s);
  }
  show("kept", pool);
  uint64_t zero = 0, one = 1;
  printf("reset high %d ", (int)cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &zero));
  printf("nonzero %d\n", (int)cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &one));
  cudaGetLastError();
  cudaMemPoolTrimTo(pool, 0);
  show("trimmed", pool);

  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  cudaMemPool_t mine;
  printf("create %d\n", (int)cudaMemPoolCreate(&mine, &props));
  int reuse = -1;
  cudaMemPoolGetAttribute(mine, cudaMemPoolReuseAllowOpportunistic, &reuse);
  printf("reuse %d\n", reuse);
  float *x, *y;
  cudaMallocFromPoolAsync(&x, 100, mine, s);
  cudaMallocAsync(&y, 300, mine, s);  // cuda_runtime.h's C++ overload
  show("mine", mine);
  cudaFree(x);  // cudaFree of a pool's block returns it to the pool
  cudaFreeAsync(y, s);
  cudaDeviceSynchronize();
  show("mine synced", mine);
  cudaMemAccessDesc desc = {};
  desc.location.type = cudaMemLocationTypeDevice;
  desc.location.id = 0;
  desc.flags = cudaMemAccessFlagsProtReadWrite;
  cudaMemAccessFlags flags = cudaMemAccessFlagsProtNone;
  printf("access %d ", (int)cudaMemPoolSetAccess(mine, &desc, 1));
  printf("%d ", (int)cudaMemPoolGetAccess(&flags, mine, &desc.location));
  printf("flags %d\n", (int)flags);
  printf("set current %d ", (int)cudaDeviceSetMemPool(0, mine));
  float* z;
  cudaMallocAsync(&z, 4096, s);  // from the current pool, now the program's own
  show("current", mine);
  printf("destroy %d ", (int)cudaMemPoolDestroy(mine));  // z still out: the pool lives until its free
  printf("destroy default %d\n", (int)cudaMemPoolDestroy(pool));
  cudaFreeAsync(z, s);
  cudaGetLastError();
  cudaDeviceGetMemPool(&current, 0);
  printf("back to default %d\n", current == pool);
  cudaStreamDestroy(s);
  return 0;
}
