// What real programs use that the CPU runtime must run like CUDA: launch arguments evaluated once,
// launches in an included header, the built-in variables as ordinary (shadowable) names, user
// identifiers the runtime must not take (`shared`, `local`, `half`), a user-defined atomicMax for
// float, conversion intrinsics with rounding modes, every device attribute, error names, vector
// types. Prints name=value lines (tests/cpu/test_runtime_coverage.py).
#include <cstdio>
#include <cuda_runtime.h>
#include "coverage.cuh"

int half = 2;   // cuda_runtime.h declares no `half` (cuda_fp16.h does)
int local = 3;  // nor `local`

struct Buffers {
  float* shared;  // a member named `shared`
};

extern __shared__ float shared[];  // file-scope dynamic shared memory named `shared`

// CUDA has no atomicMax for float: programs define it with atomicCAS.
__device__ float atomicMax(float* address, float value) {
  int* bits = reinterpret_cast<int*>(address);
  int old = *bits, assumed;
  do {
    assumed = old;
    if (__int_as_float(assumed) >= value) break;
    old = atomicCAS(bits, assumed, __float_as_int(value));
  } while (assumed != old);
  return __int_as_float(old);
}

// Nor __lane_id: programs define their own.
__device__ unsigned __lane_id() { return threadIdx.x % warpSize; }

__global__ void count_launch(int* hits, int n) { atomicAdd(hits, n + static_cast<int>(__lane_id() / warpSize)); }

struct Pair {
  int first, second;
};
__global__ void add_pair(int* hits, Pair p) { atomicAdd(hits, p.first * p.second); }

// An optional output, passed NULL: still a null pointer when each GPU thread gets the argument.
__global__ void maybe_count(int* hits, int* also) {
  atomicAdd(hits, 1);
  if (also != NULL) atomicAdd(also, 1);
}

__global__ void reverse_block(Buffers b) {
  unsigned t = threadIdx.x;
  shared[t] = b.shared[blockIdx.x * blockDim.x + t];
  __syncthreads();
  const float* all = reinterpret_cast<const float*>(shared);  // the name is a pointer, as in CUDA
  b.shared[blockIdx.x * blockDim.x + t] = all[blockDim.x - 1 - t];
}

__global__ void max_of(const float* v, float* best) { atomicMax(best, v[blockIdx.x * blockDim.x + threadIdx.x]); }

struct Conversions {
  int f2i[4], d2i[4];
  unsigned f2u[4], f2u_neg, f2u_big;
  long long f2ll[4], f2ll_big;
  float i2f[4], ll2f[4], d2f[4], ui2f_rz;
  int f2i_nan, f2i_big;
  int bits;
  float back;
  float add_ru, add_rd, sqrt_ru, sqrt_rd, fma_rz;
  int dp4a;
  unsigned udp4a;
  unsigned simd[6];
  double mul_rz, div_ru;
};

__global__ void convert(Conversions* c) {
  c->f2i[0] = __float2int_rn(2.5f);
  c->f2i[1] = __float2int_rz(-2.7f);
  c->f2i[2] = __float2int_ru(2.1f);
  c->f2i[3] = __float2int_rd(-2.1f);
  c->d2i[0] = __double2int_rn(3.5);
  c->d2i[1] = __double2int_rz(-3.9);
  c->d2i[2] = __double2int_ru(3.01);
  c->d2i[3] = __double2int_rd(-3.01);
  c->f2u[0] = __float2uint_rn(1.5f);
  c->f2u[1] = __float2uint_rz(1.9f);
  c->f2u[2] = __float2uint_ru(1.1f);
  c->f2u[3] = __float2uint_rd(1.9f);
  c->f2u_neg = __float2uint_rz(-5.0f);
  c->f2u_big = __float2uint_rz(1e20f);
  c->f2ll[0] = __float2ll_rn(-0.5f);
  c->f2ll[1] = __float2ll_rz(-1.5f);
  c->f2ll[2] = __float2ll_ru(-1.5f);
  c->f2ll[3] = __float2ll_rd(-1.5f);
  c->f2ll_big = __float2ll_rz(1e30f);
  c->i2f[0] = __int2float_rn(16777217);
  c->i2f[1] = __int2float_rz(16777219);
  c->i2f[2] = __int2float_ru(16777217);
  c->i2f[3] = __int2float_rd(-16777217);
  c->ll2f[0] = __ll2float_rn(9007199254740993LL);
  c->ll2f[1] = __ll2float_rz(33554435LL);
  c->ll2f[2] = __ll2float_ru(33554433LL);
  c->ll2f[3] = __ll2float_rd(33554435LL);
  c->ui2f_rz = __uint2float_rz(4294967295u);
  c->d2f[0] = __double2float_rn(0.1);
  c->d2f[1] = __double2float_rz(-0.1);
  c->d2f[2] = __double2float_ru(0.1);
  c->d2f[3] = __double2float_rd(0.1);
  c->f2i_nan = __float2int_rn(__int_as_float(0x7fc00000));
  c->f2i_big = __float2int_rz(3e9f);
  c->bits = __float_as_int(1.0f);
  c->back = __uint_as_float(0x40490fdbu);
  c->add_ru = __fadd_ru(1.0f, 1e-10f);
  c->add_rd = __fadd_rd(1.0f, 1e-10f);
  c->sqrt_ru = __fsqrt_ru(2.0f);
  c->sqrt_rd = __fsqrt_rd(2.0f);
  c->fma_rz = __fmaf_rz(1.0f, 1.0f, -1e-10f);
  c->mul_rz = __dmul_rz(1.0 / 3.0, 3.0);
  c->div_ru = __ddiv_ru(1.0, 3.0);
  c->dp4a = __dp4a(0x01ff02fe, 0x03030303, 10);  // 1*3 - 1*3 + 2*3 - 2*3 + 10
  c->udp4a = __dp4a(0x01ff02feu, 0x03030303u, 10u);
  c->simd[0] = __vaddss4(0x01ff7f80u, 0x01010101u);
  c->simd[1] = __vaddus4(0xfffe0001u, 0x01020304u);
  c->simd[2] = __vsubss2(0x80000001u, 0x00010002u);
  c->simd[3] = __vcmpgts4(0x7f80ff01u, 0u);
  c->simd[4] = __vabsss4(0x80ff017fu);
  c->simd[5] = __vsadu4(0x01020304u, 0x04030201u);
}

// A host reference with parameters named like the built-in variables, as CPU-side checks are written.
static unsigned reference_index(uint3 blockIdx, dim3 blockDim, uint3 threadIdx) {
  return blockIdx.x * blockDim.x + threadIdx.x;
}

int main() {
  int* hits;
  cudaMalloc(&hits, sizeof(int));
  cudaMemset(hits, 0, sizeof(int));
  int n = 1;
  count_launch<<<2, 32>>>(hits, n++);
  int h = 0;
  cudaMemcpy(&h, hits, sizeof(int), cudaMemcpyDeviceToHost);
  printf("launch_hits=%d\n", h);
  printf("launch_n=%d\n", n);
  maybe_count<<<1, 32>>>(hits, NULL);
  cudaMemcpy(&h, hits, sizeof(int), cudaMemcpyDeviceToHost);
  printf("null_argument=%d\n", h);
  add_pair<<<1, 2>>>(hits, {3, 4});  // a braced argument: the kernel's parameter type gives it one
  cudaMemcpy(&h, hits, sizeof(int), cudaMemcpyDeviceToHost);
  printf("braced_argument=%d\n", h);

  float* d;
  cudaMalloc(&d, 64 * sizeof(float));
  fill_then_scale(d, 3.0f, 64);
  float back[64];
  cudaMemcpy(back, d, sizeof back, cudaMemcpyDeviceToHost);
  printf("header_first=%g\n", back[0]);
  printf("header_last=%g\n", back[63]);
  FILL_LAUNCH(float, d, 7.0f, 64);
  cudaMemcpy(back, d, sizeof back, cudaMemcpyDeviceToHost);
  printf("macro_fill=%g\n", back[10]);

  float host[64];
  for (int i = 0; i < 64; ++i) host[i] = static_cast<float>(i);
  cudaMemcpy(d, host, sizeof host, cudaMemcpyHostToDevice);
  Buffers b{d};
  reverse_block<<<2, 32, 32 * sizeof(float)>>>(b);
  cudaMemcpy(host, d, sizeof host, cudaMemcpyDeviceToHost);
  printf("shared_reversed=%g,%g\n", host[0], host[32]);

  float* best;
  cudaMalloc(&best, sizeof(float));
  float lowest = -1e30f;
  cudaMemcpy(best, &lowest, sizeof lowest, cudaMemcpyHostToDevice);
  max_of<<<2, 32>>>(d, best);
  float top = 0;
  cudaMemcpy(&top, best, sizeof top, cudaMemcpyDeviceToHost);
  printf("user_atomic_max=%g\n", top);

  Conversions* c;
  cudaMalloc(&c, sizeof(Conversions));
  convert<<<1, 1>>>(c);
  Conversions r;
  cudaMemcpy(&r, c, sizeof r, cudaMemcpyDeviceToHost);
  printf("f2i=%d,%d,%d,%d\n", r.f2i[0], r.f2i[1], r.f2i[2], r.f2i[3]);
  printf("d2i=%d,%d,%d,%d\n", r.d2i[0], r.d2i[1], r.d2i[2], r.d2i[3]);
  printf("f2u=%u,%u,%u,%u\n", r.f2u[0], r.f2u[1], r.f2u[2], r.f2u[3]);
  printf("f2u_clamped=%u,%u\n", r.f2u_neg, r.f2u_big);
  printf("f2ll=%lld,%lld,%lld,%lld\n", r.f2ll[0], r.f2ll[1], r.f2ll[2], r.f2ll[3]);
  printf("f2ll_big=%lld\n", r.f2ll_big);
  printf("i2f=%.1f,%.1f,%.1f,%.1f\n", r.i2f[0], r.i2f[1], r.i2f[2], r.i2f[3]);
  printf("ll2f=%.1f,%.1f,%.1f,%.1f\n", r.ll2f[0], r.ll2f[1], r.ll2f[2], r.ll2f[3]);
  printf("ui2f_rz=%.1f\n", r.ui2f_rz);
  printf("d2f=%a,%a,%a,%a\n", r.d2f[0], r.d2f[1], r.d2f[2], r.d2f[3]);
  printf("f2i_nan_big=%d,%d\n", r.f2i_nan, r.f2i_big);
  printf("bits=%#x back=%.6f\n", r.bits, r.back);
  printf("dp4a=%d,%u\n", r.dp4a, r.udp4a);
  printf("simd=%08x,%08x,%08x,%08x,%08x,%u\n", r.simd[0], r.simd[1], r.simd[2], r.simd[3], r.simd[4], r.simd[5]);
  printf("rounded=%a,%a,%a,%a,%a,%a,%a\n", r.add_ru, r.add_rd, r.sqrt_ru, r.sqrt_rd, r.fma_rz, r.mul_rz, r.div_ru);

  int mode = -1, clock = 0, major = 0, managed = 0;
  cudaError_t attr_ok = cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, 0);
  cudaDeviceGetAttribute(&clock, cudaDevAttrClockRate, 0);
  cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0);
  cudaDeviceGetAttribute(&managed, cudaDevAttrManagedMemory, 0);
  printf("attr_compute_mode=%s,%d\n", cudaGetErrorName(attr_ok), mode);
  printf("attr_positive=%d\n", clock > 0 && major > 0 && managed == 1);
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  int removed_in_13 = 1;  // CUDA 13 dropped these fields; programs written for 12 read them
#if CUDART_VERSION < 13000
  removed_in_13 = prop.clockRate > 0 && prop.memoryClockRate > 0 && prop.computeMode == 0;
#endif
  printf("prop_positive=%d\n", removed_in_13 && prop.maxTexture1D > 0 && prop.l2CacheSize > 0 && prop.warpSize == 32);
  printf("error_names=%s,%s,%d\n", cudaGetErrorName(cudaErrorAssert), cudaGetErrorString(cudaErrorIllegalAddress),
         static_cast<int>(cudaErrorLaunchOutOfResources));

  size_t stack_limit = 0;
  cudaError_t set_limit = cudaDeviceSetLimit(cudaLimitStackSize, 4096);
  cudaDeviceGetLimit(&stack_limit, cudaLimitStackSize);
  cudaPointerAttributes where{};
  cudaError_t attrs = cudaPointerGetAttributes(&where, d);
  float* pooled = nullptr;
  cudaError_t pool = cudaMallocAsync(&pooled, 256, 0);
  cudaFreeAsync(pooled, 0);
  size_t free_before = 0, free_after = 0, total = 0;
  cudaMemGetInfo(&free_before, &total);
  void* megabyte = nullptr;
  cudaMalloc(&megabyte, 1 << 20);
  cudaMemGetInfo(&free_after, &total);
  cudaFree(megabyte);
  int can = 0;
  cudaError_t peer = cudaDeviceCanAccessPeer(&can, 0, 1);
  cudaGetLastError();
  float copied[2] = {0, 0};
  cudaError_t self_copy = cudaMemcpyPeer(copied, 0, d, 0, sizeof copied);
  printf("peer=%s,%s,%g\n", cudaGetErrorName(peer), cudaGetErrorName(self_copy), copied[1]);
  printf("meminfo=%d\n", free_before - free_after >= (1u << 20) && free_before <= total);
  printf("api=%s,%zu,%s,%d,%s\n", cudaGetErrorName(set_limit), stack_limit, cudaGetErrorName(attrs),
         where.type == cudaMemoryTypeDevice || where.type == cudaMemoryTypeManaged, cudaGetErrorName(pool));
  // the deprecated spelling of the blocking-sync flag (cuda-samples' simpleStreams)
  unsigned device_flags = 0;
  cudaSetDeviceFlags(cudaDeviceBlockingSync | cudaDeviceMapHost | cudaDeviceLmemResizeToMax);
  cudaGetDeviceFlags(&device_flags);
  printf("device_flags=%u,%u\n", device_flags & cudaDeviceScheduleMask, device_flags & ~cudaDeviceScheduleMask);

  uint3 bi = make_uint3(2, 0, 0), ti = make_uint3(5, 0, 0);
  dim3 bd(32);
  uint3 as_uint3 = bd;
  printf("reference_index=%u\n", reference_index(bi, bd, ti));
  printf("dim3_to_uint3=%u,%u,%u\n", as_uint3.x, as_uint3.y, as_uint3.z);
  float4 f4 = make_float4(1, 2, 3, 4);
  char2 c2 = make_char2(-1, 1);
  printf("vectors=%g,%d,%zu,%zu\n", f4.x + f4.w, c2.x, sizeof(double2), alignof(float4));
  printf("names=%d,%d\n", half, local);
  // no <climits> here: nvcc's headers bring it, and real programs rely on that
  printf("int_limits=%d,%u,%lld\n", INT_MAX, UINT_MAX, LLONG_MIN);
  cudaFree(c);
  cudaFree(best);
  cudaFree(d);
  cudaFree(hits);
  return 0;
}
