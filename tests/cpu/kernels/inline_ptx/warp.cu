// Warp votes and shuffles written in PTX, and the timing registers a profiling kernel reads.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void warp_ptx(const int* flags, unsigned* out) {
  const int t = threadIdx.x;
  unsigned all, any, uni, idx, down, warps, smid;
  unsigned long long t0, t1, ns;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t0));
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
  asm volatile("{ .reg .pred p, q; setp.ne.s32 p, %3, 0;\n\t"
               "vote.sync.all.pred q, p, 0xffffffff; selp.u32 %0, 1, 0, q;\n\t"
               "vote.sync.any.pred q, p, 0xffffffff; selp.u32 %1, 1, 0, q;\n\t"
               "vote.sync.uni.pred q, p, 0xffffffff; selp.u32 %2, 1, 0, q; }"
               : "=r"(all), "=r"(any), "=r"(uni) : "r"(flags[t]));
  asm volatile("shfl.sync.idx.b32 %0, %1, 3, 0x1f, 0xffffffff;" : "=r"(idx) : "r"(t * 10));
  asm volatile("shfl.sync.down.b32 %0, %1, 4, 0x1f, 0xffffffff;" : "=r"(down) : "r"(t * 10));
  asm("mov.u32 %0, %%nwarpid;" : "=r"(warps));
  asm("mov.u32 %0, %%smid;" : "=r"(smid));
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t1));
  unsigned* o = out + 8 * t;
  o[0] = all; o[1] = any; o[2] = uni; o[3] = idx; o[4] = down; o[5] = warps; o[6] = smid;
  o[7] = (t1 >= t0) && ns != 0;
}

int main() {
  int h_flags[96];
  unsigned h_out[8 * 96];
  for (int i = 0; i < 96; ++i) h_flags[i] = i < 32 ? 1 : (i < 64 ? i % 3 == 0 : 0);
  int* d_flags;
  unsigned* d_out;
  cudaMalloc(&d_flags, sizeof h_flags);
  cudaMalloc(&d_out, sizeof h_out);
  cudaMemcpy(d_flags, h_flags, sizeof h_flags, cudaMemcpyHostToDevice);
  warp_ptx<<<1, 96>>>(d_flags, d_out);
  cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
  for (int t = 0; t < 96; ++t) {
    for (int k = 0; k < 8; ++k) printf("%u ", h_out[8 * t + k]);
    printf("\n");
  }
  return 0;
}
