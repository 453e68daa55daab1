// Inline PTX as real kernels use it: lane ids, radix digits, byte swaps, carries, funnel-shift hashes.
#include <cstdio>
#include <cuda_runtime.h>
#include "bits.cuh"

#define N 256

__global__ void ptx_kernel(const unsigned* __restrict__ in, unsigned* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned x;
  asm volatile("ld.global.nc.u32 %0, [%1];" : "=r"(x) : "l"(in + i));
  unsigned hash = rotl(x * 0x9E3779B1u, 13) ^ lane_id();
  unsigned hi;
  asm("mul.hi.u32 %0, %1, %2;" : "=r"(hi) : "r"(x), "r"(0x9E3779B1u));
  unsigned rev, pop, lead, mix;
  asm("{\n\t.reg .u32 t;\n\tbrev.b32 t, %3;\n\tmov.u32 %0, t;\n\tpopc.b32 %1, %3;\n\tclz.b32 %2, %3;\n\t}"
      : "=r"(rev), "=r"(pop), "=r"(lead) : "r"(x));
  asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(mix) : "r"(x), "r"(hi), "r"(rev));
  unsigned ballot;
  asm volatile("{ .reg .pred p; setp.ne.u32 p, %1, 0; vote.sync.ballot.b32 %0, p, 0xffffffff; }"
               : "=r"(ballot) : "r"(x & 1u));
  unsigned long long sum = add64(0xFFFFFFFFull * (x + 1), 0x00000001FFFFFFFFull + i);
  __shared__ unsigned staged[64];
  staged[threadIdx.x] = x;
  asm volatile("bar.sync 0;" ::: "memory");  // __syncthreads() as PTX: the neighbour's value is there
  hash ^= staged[(threadIdx.x + 1) % 64];
  unsigned* o = out + 12 * i;
  unsigned warp;
  WARP_ID(warp);
  o[0] = lane_id() | (warp << 16); o[1] = bfe_digit(x, 4, 8); o[2] = (unsigned)bfe_signed((int)x, 28, 4); o[3] = byte_swap(x);
  o[4] = (unsigned)sum; o[5] = (unsigned)(sum >> 32); o[6] = hash; o[7] = hi;
  o[8] = rev; o[9] = pop | (lead << 8); o[10] = mix; o[11] = ballot;
}

int main() {
  unsigned h_in[N], h_out[12 * N];
  for (unsigned i = 0; i < N; ++i) h_in[i] = i * 2654435761u + 12345u;
  unsigned *d_in, *d_out;
  cudaMalloc(&d_in, sizeof h_in);
  cudaMalloc(&d_out, sizeof h_out);
  cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
  ptx_kernel<<<N / 64, 64>>>(d_in, d_out);
  cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
  for (unsigned i = 0; i < N; ++i) {
    printf("%u", h_in[i]);
    for (int k = 0; k < 12; ++k) printf(" %u", h_out[12 * i + k]);
    printf("\n");
  }
  cudaFree(d_in);
  cudaFree(d_out);
  return 0;
}
