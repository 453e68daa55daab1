// Device helpers in the shape of real projects' PTX wrappers (cub/util_ptx.cuh-style).
#pragma once
#include <cstdint>

// The warp id as projects' macros read it (a #define body, which the grammar leaves as text).
#define WARP_ID(out) asm volatile("mov.u32 %0, %%warpid;" : "=r"(out))

__device__ __forceinline__ unsigned lane_id() {
  unsigned ret;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(ret));
  return ret;
}
// A radix sort's digit: `bits` bits of the key from `bit`.
__device__ __forceinline__ unsigned bfe_digit(unsigned key, unsigned bit, unsigned bits) {
  unsigned digit;
  asm("bfe.u32 %0, %1, %2, %3;" : "=r"(digit) : "r"(key), "r"(bit), "r"(bits));
  return digit;
}
__device__ __forceinline__ int bfe_signed(int v, unsigned bit, unsigned bits) {
  int r;
  asm("bfe.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(v), "r"(bit), "r"(bits));
  return r;
}
__device__ __forceinline__ unsigned byte_swap(unsigned x) {
  unsigned r;
  asm("prmt.b32 %0, %1, 0, 0x0123;" : "=r"(r) : "r"(x));
  return r;
}
// 64-bit add as two 32-bit halves, the carry passed from one asm statement to the next.
__device__ __forceinline__ unsigned long long add64(unsigned long long a, unsigned long long b) {
  unsigned lo, hi;
  asm("add.cc.u32 %0, %1, %2;" : "=r"(lo) : "r"((unsigned)a), "r"((unsigned)b));
  asm("addc.u32 %0, %1, %2;" : "=r"(hi) : "r"((unsigned)(a >> 32)), "r"((unsigned)(b >> 32)));
  return ((unsigned long long)hi << 32) | lo;
}
__device__ __forceinline__ unsigned rotl(unsigned x, unsigned n) {
  unsigned r;
  asm("shf.l.wrap.b32 %0, %1, %1, %2;" : "=r"(r) : "r"(x), "r"(n));
  return r;
}
