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
  printf("bad lda %d, null handle %d, bad n %d, ex unsupported %d\n",
    cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 3, 3, 3, &one, A, 2, A, 3, &zero, A, 3),
    cublasSaxpy(nullptr, 1, &one, A, 1, A, 1), cublasSaxpy(h, -1, &one, A, 1, A, 1),
    cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 1, 1, 1, &one, A, CUDA_R_32F, 1, A, CUDA_R_64F, 1, &zero, A, CUDA_R_32F, 1, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
  printf("%s\n", cublasGetStatusName(CUBLAS_STATUS_INVALID_VALUE));
  cublasDestroy(h);
}
