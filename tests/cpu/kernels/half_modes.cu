// __half conversions in each rounding mode and the half math functions
// (tests/cpu/test_runtime_coverage.py). Prints name=value lines, halves as their bit patterns.
#include <cstdio>
#include <cuda_fp16.h>

struct Halves {
  unsigned short f2h[4], f2h_big_rz, i2h_rd;
  int h2i[4];
  unsigned h2u_neg;
  long long h2ll_rd;
  short h2s_ru;
  float math[8];
  float sat, relu;
  float pair_sum;
};

__global__ void convert(Halves* o) {
  const float third = 1.0f / 3.0f;  // between two halves
  o->f2h[0] = __half_as_ushort(__float2half_rn(third));
  o->f2h[1] = __half_as_ushort(__float2half_rz(third));
  o->f2h[2] = __half_as_ushort(__float2half_ru(third));
  o->f2h[3] = __half_as_ushort(__float2half_rd(-third));
  o->f2h_big_rz = __half_as_ushort(__float2half_rz(1e6f));  // the largest finite half, not inf
  o->i2h_rd = __half_as_ushort(__int2half_rd(2049));        // 2048 and 2050 are the halves around it
  __half h = __float2half(2.5f);
  o->h2i[0] = __half2int_rn(h);
  o->h2i[1] = __half2int_rz(__hneg(h));
  o->h2i[2] = __half2int_ru(h);
  o->h2i[3] = __half2int_rd(__hneg(h));
  o->h2u_neg = __half2uint_rd(__hneg(h));
  o->h2ll_rd = __half2ll_rd(__float2half(-0.5f));
  o->h2s_ru = __half2short_ru(__float2half(0.25f));
  __half x = __float2half(2.25f);
  o->math[0] = __half2float(hceil(x));
  o->math[1] = __half2float(hfloor(x));
  o->math[2] = __half2float(htrunc(__hneg(x)));
  o->math[3] = __half2float(hrint(__float2half(2.5f)));
  o->math[4] = __half2float(hexp2(__float2half(3.0f)));
  o->math[5] = __half2float(hlog2(__float2half(8.0f)));
  o->math[6] = __half2float(hrcp(__float2half(4.0f)));
  o->math[7] = __low2float(h2floor(__floats2half2_rn(1.5f, -1.5f))) + __high2float(h2floor(__floats2half2_rn(1.5f, -1.5f)));
  o->sat = __half2float(__hfma_sat(x, x, x));
  o->relu = __half2float(__hfma_relu(__hneg(x), x, x));
  half2 pair(0.5f, 1.25f);  // the constructor from two halves, each converted from float (cuda-samples' fp16ScalarProduct)
  pair = pair * pair + pair;
  o->pair_sum = __low2float(pair) + __high2float(pair);
}

int main() {
  Halves* o;
  cudaMallocManaged(&o, sizeof(Halves));
  convert<<<1, 1>>>(o);
  cudaDeviceSynchronize();
  printf("f2h=%04x,%04x,%04x,%04x\n", o->f2h[0], o->f2h[1], o->f2h[2], o->f2h[3]);
  printf("f2h_big_rz=%04x i2h_rd=%04x\n", o->f2h_big_rz, o->i2h_rd);
  printf("h2i=%d,%d,%d,%d\n", o->h2i[0], o->h2i[1], o->h2i[2], o->h2i[3]);
  printf("h2other=%u,%lld,%d\n", o->h2u_neg, o->h2ll_rd, o->h2s_ru);
  printf("math=%g,%g,%g,%g,%g,%g,%g,%g\n", o->math[0], o->math[1], o->math[2], o->math[3], o->math[4], o->math[5],
         o->math[6], o->math[7]);
  printf("fma=%g,%g\n", o->sat, o->relu);
  printf("pair_sum=%g\n", o->pair_sum);
#ifdef __CUDA_RUNTIME_H__  // nvcc includes cuda_runtime.h in every unit: helper_cuda.h tests its guard
  printf("runtime_guard=1\n");
#endif
  cudaFree(o);
  return 0;
}
