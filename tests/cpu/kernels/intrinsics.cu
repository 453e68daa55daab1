// Intrinsics, math, vector types, __half, barrier reductions, warp votes, device properties and
// launch-configuration errors. Prints name=value lines.
#include <cstdio>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

struct Out {
  int popc, clz, ffs, clz0, syncount, syncand, syncor, any, all, ballot_popc, lane_of_31;
  unsigned brev, byte_perm, umulhi;
  float expf_, rsqrt_, fdiv, fma_, sat, half_back, half_sum, f4sum, minmax;
  unsigned short half_bits;
};

__global__ void probe(Out* o, const float4* v) {
  int t = threadIdx.x;
  int count = __syncthreads_count(t % 3 == 0);
  int all_pos = __syncthreads_and(t >= 0);
  int any_big = __syncthreads_or(t > 60);
  unsigned ballot = __ballot_sync(0xffffffff, t % 2 == 0);
  int any = __any_sync(0xffffffff, t == 5);
  int all = __all_sync(0xffffffff, t < 1000);
  int from31 = __shfl_sync(0xffffffff, t, 31);
  if (t == 0) {
    o->popc = __popc(0xf0f0u);
    o->clz = __clz(1 << 20);
    o->clz0 = __clz(0);
    o->ffs = __ffs(0x50);
    o->brev = __brev(1u);
    o->byte_perm = __byte_perm(0x33221100u, 0x77665544u, 0x4321u);
    o->umulhi = __umulhi(0x80000000u, 6u);
    o->syncount = count;
    o->syncand = all_pos;
    o->syncor = any_big;
    o->any = any;
    o->all = all;
    o->ballot_popc = __popc(ballot);
    o->lane_of_31 = from31;
    o->expf_ = __expf(1.0f);
    o->rsqrt_ = rsqrtf(16.0f);
    o->fdiv = __fdividef(1.0f, 8.0f);
    o->fma_ = fmaf(2.0f, 3.0f, 0.5f);
    o->sat = __saturatef(1.7f) + __saturatef(-2.0f);
    __half h = __float2half(1.5f);
    o->half_bits = __half_as_ushort(h);
    o->half_back = __half2float(__float2half(3.14159f));
    o->half_sum = __half2float(__hadd(h, __float2half(0.25f)));
    float4 a = v[0];
    o->f4sum = a.x + a.y + a.z + a.w;
    o->minmax = min(3, 7) + max(2.5f, 1.0f);
  }
}

int main() {
  Out* d;
  float4* dv;
  cudaMalloc(&d, sizeof(Out));
  cudaMalloc(&dv, sizeof(float4));
  float4 h4 = make_float4(1.0f, 2.0f, 3.0f, 4.5f);
  cudaMemcpy(dv, &h4, sizeof h4, cudaMemcpyHostToDevice);
  probe<<<1, 64>>>(d, dv);
  cudaError_t ok = cudaGetLastError();
  Out o;
  cudaMemcpy(&o, d, sizeof o, cudaMemcpyDeviceToHost);
  printf("popc=%d clz=%d clz0=%d ffs=%d brev=%08x byte_perm=%08x umulhi=%u\n", o.popc, o.clz, o.clz0, o.ffs, o.brev,
         o.byte_perm, o.umulhi);
  printf("syncount=%d syncand=%d syncor=%d any=%d all=%d ballot_popc=%d lane_of_31=%d\n", o.syncount, o.syncand,
         o.syncor, o.any, o.all, o.ballot_popc, o.lane_of_31);
  printf("expf=%.5f rsqrt=%.4f fdiv=%.4f fma=%.2f sat=%.2f\n", o.expf_, o.rsqrt_, o.fdiv, o.fma_, o.sat);
  printf("half_bits=%04x half_back=%.4f half_sum=%.4f f4sum=%.2f minmax=%.2f\n", o.half_bits, o.half_back, o.half_sum,
         o.f4sum, o.minmax);
  printf("align_float4=%zu align_double2=%zu sizeof_float3=%zu\n", alignof(float4), alignof(double2), sizeof(float3));
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  printf("prop_warp=%d prop_max_threads=%d\n", prop.warpSize, prop.maxThreadsPerBlock);
  probe<<<1, 2048>>>(d, dv);
  cudaError_t bad = cudaGetLastError();
  printf("launch_ok=%s launch_too_big=%s after_reset=%s\n", cudaGetErrorName(ok), cudaGetErrorName(bad),
         cudaGetErrorName(cudaGetLastError()));
  return 0;
}
