// The rest of the translated PTX, one value per form, for a table of inputs: prmt modes, funnel
// shifts, bfind, borrows, madc chains, wide multiplies, cvt rounding, vector loads, shuffles.
#include <cstdio>
#include <cstdint>
#include <cuda_runtime.h>

#define FORMS 29

__device__ unsigned prmt_mode(unsigned a, unsigned b, unsigned c, int mode) {
  unsigned d = 0;
  switch (mode) {
    case 0: asm("prmt.b32.f4e %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); break;
    case 1: asm("prmt.b32.b4e %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); break;
    case 2: asm("prmt.b32.rc8 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); break;
    case 3: asm("prmt.b32.ecl %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); break;
    case 4: asm("prmt.b32.ecr %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); break;
    default: asm("prmt.b32.rc16 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); break;
  }
  return d;
}

__global__ void forms(const unsigned* in, const float* f, unsigned* out) {
  const unsigned t = threadIdx.x, a = in[2 * t], b = in[2 * t + 1];
  unsigned* o = out + FORMS * t;
  for (int m = 0; m < 6; ++m) o[m] = prmt_mode(a, b, t, m);
  asm("shf.r.clamp.b32 %0, %1, %2, %3;" : "=r"(o[6]) : "r"(a), "r"(b), "r"(t + 20));
  asm("shf.l.clamp.b32 %0, %1, %2, %3;" : "=r"(o[7]) : "r"(a), "r"(b), "r"(t + 20));
  asm("bfind.s32 %0, %1;" : "=r"(o[8]) : "r"((int)a));
  asm("bfind.shiftamt.u32 %0, %1;" : "=r"(o[9]) : "r"(b >> (t % 32)));
  unsigned long long x = ((unsigned long long)a << 32) | b, y = ((unsigned long long)b << 32) | a, d;
  unsigned lo, hi;
  asm("sub.cc.u32 %0, %2, %4;\n\tsubc.u32 %1, %3, %5;"
      : "=r"(lo), "=r"(hi) : "r"((unsigned)x), "r"((unsigned)(x >> 32)), "r"((unsigned)y), "r"((unsigned)(y >> 32)));
  o[10] = lo; o[11] = hi;
  // 32x32 -> 64 through mad.lo.cc / madc.hi, the way multi-precision code chains them
  asm("mad.lo.cc.u32 %0, %2, %3, %4;\n\tmadc.hi.u32 %1, %2, %3, %5;" : "=r"(lo), "=r"(hi) : "r"(a), "r"(b), "r"(t), "r"(7u));
  o[12] = lo; o[13] = hi;
  asm("mul.wide.u32 %0, %1, %2;" : "=l"(d) : "r"(a), "r"(b));
  o[14] = (unsigned)d; o[15] = (unsigned)(d >> 32);
  int r;
  asm("cvt.rni.s32.f32 %0, %1;" : "=r"(r) : "f"(f[t])); o[16] = (unsigned)r;
  asm("cvt.rmi.s32.f32 %0, %1;" : "=r"(r) : "f"(f[t])); o[17] = (unsigned)r;
  asm("cvt.rzi.sat.u8.f32 %0, %1;" : "=r"(r) : "f"(f[t] * 40.0f)); o[18] = (unsigned)r;
  unsigned v0, v1, v2, v3;
  asm volatile("ld.global.nc.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(v0), "=r"(v1), "=r"(v2), "=r"(v3) : "l"(in + 4 * (t / 2)));
  o[19] = v0 + v1 + v2 + v3;
  asm volatile("shfl.sync.bfly.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(o[20]) : "r"(a), "r"(1));
  asm volatile("shfl.sync.up.b32 %0, %1, %2, 0x0, 0xffffffff;" : "=r"(o[21]) : "r"(a), "r"(2));
  asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(o[22]) : "r"(a), "r"(b), "r"(t % 32), "r"(12u));
  asm volatile("st.global.u32 [%0+4], %1;\n\tmembar.gl;" :: "l"(o + 22), "r"(a ^ b) : "memory");
  unsigned short h;
  float back;
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f[t] * 1.1f));
  asm("cvt.f32.f16 %0, %1;" : "=f"(back) : "h"(h));
  o[27] = h; o[28] = __float_as_uint(back);
  asm("mov.b64 {%0, %1}, %2;" : "=r"(o[24]), "=r"(o[25]) : "l"(x));
  asm("{\n\t.reg .b32 %%r<2>;\n\t.reg .b64 %%rd;\n\tadd.u32 %%r0, %1, 1;\n\tmov.b64 %%rd, {%%r0, %2};\n\t"
      "shr.u64 %%rd, %%rd, 16;\n\tcvt.u32.u64 %0, %%rd;\n\t}" : "=r"(o[26]) : "r"(a), "r"(b));
}

int main() {
  const int threads = 64;
  unsigned h_in[2 * threads], h_out[FORMS * threads];
  float h_f[threads];
  for (int i = 0; i < 2 * threads; ++i) h_in[i] = (unsigned)i * 0x9E3779B9u ^ 0xA5A5F00Fu;
  for (int i = 0; i < threads; ++i) h_f[i] = (i - 32) * 0.75f + 0.5f;
  unsigned *d_in, *d_out;
  float* d_f;
  cudaMalloc(&d_in, sizeof h_in);
  cudaMalloc(&d_out, sizeof h_out);
  cudaMalloc(&d_f, sizeof h_f);
  cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
  cudaMemcpy(d_f, h_f, sizeof h_f, cudaMemcpyHostToDevice);
  forms<<<1, threads>>>(d_in, d_f, d_out);
  cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
  for (int t = 0; t < threads; ++t) {
    for (int k = 0; k < FORMS; ++k) printf("%u ", h_out[FORMS * t + k]);
    printf("\n");
  }
  return 0;
}
