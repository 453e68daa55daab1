// cuBLAS routines beyond GEMM on small operands whose results are known by hand (tests/cpu/test_gpu_libraries.py).
#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cstdio>
#include <cmath>
int main() {
  cublasHandle_t h; cublasCreate(&h);
  // A 3x2 col-major
  float A[6] = {1, 2, 3, 4, 5, 6}, x[2] = {1, -1}, y[3] = {1, 1, 1}, one = 1, two = 2;
  cublasSgemv(h, CUBLAS_OP_N, 3, 2, &two, A, 3, x, 1, &one, y, 1);  // y = 2*A*x + y = 2*(-3,-3,-3)+1 = -5
  printf("gemv %g %g %g\n", y[0], y[1], y[2]);
  float xt[3] = {1, 0, 1}, z[2] = {0, 0}, zero = 0;
  cublasSgemv(h, CUBLAS_OP_T, 3, 2, &one, A, 3, xt, 1, &zero, z, 1);  // A^T xt = (1+3, 4+6) = 4, 10
  printf("gemvT %g %g\n", z[0], z[1]);
  double G[4] = {0, 0, 0, 0}, u[2] = {1, 2}, v[2] = {3, 4}, dn = 1;
  cublasDger(h, 2, 2, &dn, u, 1, v, 1, G, 2);  // G = u v^T: col-major 3,6,4,8
  printf("ger %g %g %g %g\n", G[0], G[1], G[2], G[3]);
  // symm: S lower = [[2,.],[1,3]] ; B = I ; C = S
  float S[4] = {2, 1, 99, 3}, I[4] = {1, 0, 0, 1}, Cm[4];
  cublasSsymm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, 2, 2, &one, S, 2, I, 2, &zero, Cm, 2);
  printf("symm %g %g %g %g\n", Cm[0], Cm[1], Cm[2], Cm[3]);
  // trsm: L = [[2,0],[1,4]] lower, solve L X = B with B = [[2],[9]] -> X = [1, 2]
  float L[4] = {2, 1, 0, 4}, Bv[2] = {2, 9};
  cublasStrsm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, 2, 1, &one, L, 2, Bv, 2);
  printf("trsm %g %g\n", Bv[0], Bv[1]);
  // GemmEx half in, float out: 2x2 * 2x2
  __half ha[4], hb[4]; float hc[4];
  for (int i = 0; i < 4; ++i) { ha[i] = __float2half(i + 1.0f); hb[i] = __float2half(i == 0 || i == 3 ? 1.0f : 0.0f); }
  int st = cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &one, ha, CUDA_R_16F, 2, hb, CUDA_R_16F, 2, &zero, hc, CUDA_R_32F, 2, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  printf("gemmex h->f %d %g %g %g %g\n", st, hc[0], hc[1], hc[2], hc[3]);
  __half hh[4]; __half hone = __float2half(1.0f), hzero = __float2half(0.0f);
  st = cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, 2, 2, 2, &hone, ha, CUDA_R_16F, 2, hb, CUDA_R_16F, 2, &hzero, hh, CUDA_R_16F, 2, CUBLAS_COMPUTE_16F, CUBLAS_GEMM_DEFAULT);
  printf("gemmex h->h T %d %g %g %g %g\n", st, __half2float(hh[0]), __half2float(hh[1]), __half2float(hh[2]), __half2float(hh[3]));
  // batched pointer array
  float a1[1] = {2}, a2[1] = {3}, b1[1] = {5}, b2[1] = {7}, c1[1], c2[1];
  const float* As[2] = {a1, a2}; const float* Bs[2] = {b1, b2}; float* Cs[2] = {c1, c2};
  cublasSgemmBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, 1, 1, 1, &one, As, 1, Bs, 1, &zero, Cs, 1, 2);
  printf("batched %g %g\n", c1[0], c2[0]);
  float w[4] = {3, -1, -7, 0.5}; int im = -1, ia = -1; float nr, as;
  cublasIsamin(h, 4, w, 1, &im); cublasIsamax(h, 4, w, 1, &ia); cublasSnrm2(h, 4, w, 1, &nr); cublasSasum(h, 4, w, 1, &as);
  printf("amin %d amax %d nrm2 %g asum %g\n", im, ia, nr, as);
  // complex: herk and syrk of A = (1+i, 2) fill one triangle (99 marks the other), gemm3m, GemmEx
  // in double complex, |re| + |im| for Icamax/Icamin/Scasum, real scalars for Csscal/Zdscal
  cuComplex ca[2] = {make_cuComplex(1, 1), make_cuComplex(2, 0)}, ck[4], cs[4], cprod, cone = make_cuComplex(1, 0),
            czero = make_cuComplex(0, 0), cx = make_cuComplex(1, 2), cy = make_cuComplex(3, -1);
  for (int i = 0; i < 4; ++i) ck[i] = cs[i] = make_cuComplex(99, 0);
  cublasCherk(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, 2, 1, &one, ca, 2, &zero, ck, 2);
  cublasCsyrk(h, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, 2, 1, &cone, ca, 2, &czero, cs, 2);
  cublasCgemm3m(h, CUBLAS_OP_N, CUBLAS_OP_N, 1, 1, 1, &cone, &cx, 1, &cy, 1, &czero, &cprod, 1);
  printf("herk %g%+gi %g%+gi %g %g syrk %g%+gi %g %g%+gi %g gemm3m %g%+gi\n", ck[0].x, ck[0].y, ck[1].x, ck[1].y, ck[2].x,
         ck[3].x, cs[0].x, cs[0].y, cs[1].x, cs[2].x, cs[2].y, cs[3].x, cprod.x, cprod.y);
  cuDoubleComplex za = make_cuDoubleComplex(1, 1), zb = make_cuDoubleComplex(1, -1), zc, z1 = make_cuDoubleComplex(1, 0),
                  z0 = make_cuDoubleComplex(0, 0), zs = make_cuDoubleComplex(4, -2);
  st = cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 1, 1, 1, &z1, &za, CUDA_C_64F, 1, &zb, CUDA_C_64F, 1, &z0, &zc, CUDA_C_64F, 1, CUBLAS_COMPUTE_64F, CUBLAS_GEMM_DEFAULT);
  cuComplex cv[3] = {make_cuComplex(1, 1), make_cuComplex(-3, 0), make_cuComplex(2, 2)};
  float csum, two_f = 2; double half_d = 0.5;
  cublasIcamax(h, 3, cv, 1, &ia); cublasIcamin(h, 3, cv, 1, &im); cublasScasum(h, 3, cv, 1, &csum);
  cublasCsscal(h, 1, &two_f, cv, 1); cublasZdscal(h, 1, &half_d, &zs, 1);
  printf("gemmex z %d %g%+gi icamax %d icamin %d scasum %g csscal %g%+gi zdscal %g%+gi\n", st, zc.x, zc.y, ia, im, csum,
         cv[0].x, cv[0].y, zs.x, zs.y);
  printf("bad lda %d, null handle %d, bad n %d, ex unsupported %d\n",
    cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 3, 3, 3, &one, A, 2, A, 3, &zero, A, 3),
    cublasSaxpy(nullptr, 1, &one, A, 1, A, 1), cublasSaxpy(h, -1, &one, A, 1, A, 1),
    cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 1, 1, 1, &one, A, CUDA_R_32F, 1, A, CUDA_R_64F, 1, &zero, A, CUDA_R_32F, 1, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
  printf("%s\n", cublasGetStatusName(CUBLAS_STATUS_INVALID_VALUE));
  cublasDestroy(h);
}
