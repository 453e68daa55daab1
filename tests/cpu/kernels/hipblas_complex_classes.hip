// hipBLAS's plain complex names as ROCm 5 spells them (hipblasComplex and hipblasDoubleComplex,
// its classes with real() and imag()) on small operands whose results are known by hand
// (tests/cpu/test_gpu_libraries.py).
#include <hip/hip_runtime.h>
#include <hipblas/hipblas.h>
#include <cstdio>
int main() {
  hipblasHandle_t h;
  hipblasCreate(&h);
  hipblasComplex x[2] = {hipblasComplex(1, 2), hipblasComplex(3, -1)}, y[2] = {hipblasComplex(0, 1), hipblasComplex(2)};
  hipblasComplex dotc, dotu, one(1), zero(0), c[1];
  hipblasCdotc(h, 2, x, 1, y, 1, &dotc);  // (1-2i) i + (3+i) 2 = 8+3i
  hipblasCdotu(h, 2, x, 1, y, 1, &dotu);  // (1+2i) i + (3-i) 2 = 4-i
  const hipblasComplex* as[1] = {x};
  const hipblasComplex* bs[1] = {y};
  hipblasComplex* cs[1] = {c};
  hipblasCgemmBatched(h, HIPBLAS_OP_C, HIPBLAS_OP_N, 1, 1, 2, &one, as, 2, bs, 2, &zero, cs, 1, 1);  // x^H y
  hipblasDoubleComplex z[1] = {hipblasDoubleComplex(1, 1)}, w[1] = {hipblasDoubleComplex(0, 0)}, a(0, 2);
  hipblasZaxpy(h, 1, &a, z, 1, w, 1);  // 2i (1+i) = -2+2i
  int at;
  hipblasIcamax(h, 2, x, 1, &at);  // |re| + |im|: 3, 4
  printf("dotc %g%+gi dotu %g%+gi batched %g%+gi zaxpy %g%+gi icamax %d\n", dotc.real(), dotc.imag(), dotu.real(),
         dotu.imag(), c[0].real(), c[0].imag(), w[0].real(), w[0].imag(), at);
  hipblasDestroy(h);
}
