// cuBLAS on the CPU runtime, through OpenBLAS's CBLAS (hipBLAS maps its names onto these, so an
// original and its translation run the same BLAS). Device memory is host memory, so a scalar or a
// result is read or written where its pointer points whatever the pointer mode, and the runtime's
// launches are synchronous, so a call needs no stream ordering. Column-major throughout, as cuBLAS
// (and BLAS) define it. What is not here is refused by name before building (cass_lsp/cpu/refuse.py).
#pragma once
#include <cblas.h>

#include <cstdint>
#include <vector>

#include "runtime.hpp"
#include "complex.hpp"
#include "half.hpp"
#include "library_types.hpp"

typedef enum {
  CUBLAS_STATUS_SUCCESS = 0,
  CUBLAS_STATUS_NOT_INITIALIZED = 1,
  CUBLAS_STATUS_ALLOC_FAILED = 3,
  CUBLAS_STATUS_INVALID_VALUE = 7,
  CUBLAS_STATUS_ARCH_MISMATCH = 8,
  CUBLAS_STATUS_MAPPING_ERROR = 11,
  CUBLAS_STATUS_EXECUTION_FAILED = 13,
  CUBLAS_STATUS_INTERNAL_ERROR = 14,
  CUBLAS_STATUS_NOT_SUPPORTED = 15,
  CUBLAS_STATUS_LICENSE_ERROR = 16
} cublasStatus_t;
typedef enum { CUBLAS_OP_N = 0, CUBLAS_OP_T = 1, CUBLAS_OP_C = 2, CUBLAS_OP_HERMITAN = 2, CUBLAS_OP_CONJG = 3 } cublasOperation_t;
typedef enum { CUBLAS_FILL_MODE_LOWER = 0, CUBLAS_FILL_MODE_UPPER = 1, CUBLAS_FILL_MODE_FULL = 2 } cublasFillMode_t;
typedef enum { CUBLAS_DIAG_NON_UNIT = 0, CUBLAS_DIAG_UNIT = 1 } cublasDiagType_t;
typedef enum { CUBLAS_SIDE_LEFT = 0, CUBLAS_SIDE_RIGHT = 1 } cublasSideMode_t;
typedef enum { CUBLAS_POINTER_MODE_HOST = 0, CUBLAS_POINTER_MODE_DEVICE = 1 } cublasPointerMode_t;
typedef enum { CUBLAS_ATOMICS_NOT_ALLOWED = 0, CUBLAS_ATOMICS_ALLOWED = 1 } cublasAtomicsMode_t;
typedef enum {
  CUBLAS_DEFAULT_MATH = 0,
  CUBLAS_TENSOR_OP_MATH = 1,
  CUBLAS_PEDANTIC_MATH = 2,
  CUBLAS_TF32_TENSOR_OP_MATH = 3,
  CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION = 16
} cublasMath_t;
typedef enum { CUBLAS_GEMM_DEFAULT = -1, CUBLAS_GEMM_DFALT = -1, CUBLAS_GEMM_DEFAULT_TENSOR_OP = 99 } cublasGemmAlgo_t;
typedef enum {
  CUBLAS_COMPUTE_16F = 64,
  CUBLAS_COMPUTE_16F_PEDANTIC = 65,
  CUBLAS_COMPUTE_32F = 68,
  CUBLAS_COMPUTE_32F_PEDANTIC = 69,
  CUBLAS_COMPUTE_32F_FAST_16F = 74,
  CUBLAS_COMPUTE_32F_FAST_16BF = 75,
  CUBLAS_COMPUTE_32F_FAST_TF32 = 77,
  CUBLAS_COMPUTE_64F = 70,
  CUBLAS_COMPUTE_64F_PEDANTIC = 71,
  CUBLAS_COMPUTE_32I = 72,
  CUBLAS_COMPUTE_32I_PEDANTIC = 73
} cublasComputeType_t;

struct cublasContext {
  cudaStream_t stream = nullptr;
  cublasPointerMode_t pointer_mode = CUBLAS_POINTER_MODE_HOST;
  cublasMath_t math = CUBLAS_DEFAULT_MATH;
  cublasAtomicsMode_t atomics = CUBLAS_ATOMICS_NOT_ALLOWED;
};
typedef cublasContext* cublasHandle_t;

#define CUBLAS_VER_MAJOR 12
#define CUBLAS_VER_MINOR 0
#define CUBLAS_VER_PATCH 0
#define CUBLAS_VERSION (CUBLAS_VER_MAJOR * 10000 + CUBLAS_VER_MINOR * 100 + CUBLAS_VER_PATCH)

namespace cass {
namespace blas {

inline CBLAS_TRANSPOSE op(cublasOperation_t o) {
  return o == CUBLAS_OP_N ? CblasNoTrans : o == CUBLAS_OP_T ? CblasTrans : CblasConjTrans;
}
inline bool valid_op(cublasOperation_t o) { return o == CUBLAS_OP_N || o == CUBLAS_OP_T || o == CUBLAS_OP_C; }
inline CBLAS_UPLO uplo(cublasFillMode_t f) { return f == CUBLAS_FILL_MODE_LOWER ? CblasLower : CblasUpper; }
inline CBLAS_SIDE side(cublasSideMode_t s) { return s == CUBLAS_SIDE_LEFT ? CblasLeft : CblasRight; }
inline CBLAS_DIAG diag(cublasDiagType_t d) { return d == CUBLAS_DIAG_UNIT ? CblasUnit : CblasNonUnit; }
inline int at_least_1(int n) { return n > 1 ? n : 1; }

// The argument checks cuBLAS makes (its INVALID_VALUE cases) for a (transposed) GEMM.
inline cublasStatus_t gemm_checks(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                                  int lda, int ldb, int ldc) {
  if (h == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!valid_op(ta) || !valid_op(tb) || m < 0 || n < 0 || k < 0) return CUBLAS_STATUS_INVALID_VALUE;
  if (lda < at_least_1(ta == CUBLAS_OP_N ? m : k) || ldb < at_least_1(tb == CUBLAS_OP_N ? k : n) ||
      ldc < at_least_1(m))
    return CUBLAS_STATUS_INVALID_VALUE;
  return CUBLAS_STATUS_SUCCESS;
}

// The same for a rank-k update (herk, syrk): ``transposed`` is the one flag besides N it accepts.
inline cublasStatus_t rank_k_checks(cublasHandle_t h, cublasFillMode_t fill, cublasOperation_t t,
                                    cublasOperation_t transposed, int n, int k, int lda, int ldc) {
  if (h == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;
  if ((t != CUBLAS_OP_N && t != transposed) || fill == CUBLAS_FILL_MODE_FULL || n < 0 || k < 0 ||
      lda < at_least_1(t == CUBLAS_OP_N ? n : k) || ldc < at_least_1(n))
    return CUBLAS_STATUS_INVALID_VALUE;
  return CUBLAS_STATUS_SUCCESS;
}

// One name per operation for both precisions, so each cuBLAS entry point is written once.
inline void axpy(int n, float a, const float* x, int ix, float* y, int iy) { cblas_saxpy(n, a, x, ix, y, iy); }
inline void axpy(int n, double a, const double* x, int ix, double* y, int iy) { cblas_daxpy(n, a, x, ix, y, iy); }
inline float dot(int n, const float* x, int ix, const float* y, int iy) { return cblas_sdot(n, x, ix, y, iy); }
inline double dot(int n, const double* x, int ix, const double* y, int iy) { return cblas_ddot(n, x, ix, y, iy); }
inline float nrm2(int n, const float* x, int ix) { return cblas_snrm2(n, x, ix); }
inline double nrm2(int n, const double* x, int ix) { return cblas_dnrm2(n, x, ix); }
inline float asum(int n, const float* x, int ix) { return cblas_sasum(n, x, ix); }
inline double asum(int n, const double* x, int ix) { return cblas_dasum(n, x, ix); }
inline void scal(int n, float a, float* x, int ix) { cblas_sscal(n, a, x, ix); }
inline void scal(int n, double a, double* x, int ix) { cblas_dscal(n, a, x, ix); }
inline void copy(int n, const float* x, int ix, float* y, int iy) { cblas_scopy(n, x, ix, y, iy); }
inline void copy(int n, const double* x, int ix, double* y, int iy) { cblas_dcopy(n, x, ix, y, iy); }
inline void swap(int n, float* x, int ix, float* y, int iy) { cblas_sswap(n, x, ix, y, iy); }
inline void swap(int n, double* x, int ix, double* y, int iy) { cblas_dswap(n, x, ix, y, iy); }
inline int amax(int n, const float* x, int ix) { return static_cast<int>(cblas_isamax(n, x, ix)); }
inline int amax(int n, const double* x, int ix) { return static_cast<int>(cblas_idamax(n, x, ix)); }
inline int amin(int n, const float* x, int ix) { return static_cast<int>(cblas_isamin(n, x, ix)); }
inline int amin(int n, const double* x, int ix) { return static_cast<int>(cblas_idamin(n, x, ix)); }
inline void gemv(CBLAS_TRANSPOSE t, int m, int n, float a, const float* A, int lda, const float* x, int ix, float b,
                 float* y, int iy) {
  cblas_sgemv(CblasColMajor, t, m, n, a, A, lda, x, ix, b, y, iy);
}
inline void gemv(CBLAS_TRANSPOSE t, int m, int n, double a, const double* A, int lda, const double* x, int ix,
                 double b, double* y, int iy) {
  cblas_dgemv(CblasColMajor, t, m, n, a, A, lda, x, ix, b, y, iy);
}
inline void ger(int m, int n, float a, const float* x, int ix, const float* y, int iy, float* A, int lda) {
  cblas_sger(CblasColMajor, m, n, a, x, ix, y, iy, A, lda);
}
inline void ger(int m, int n, double a, const double* x, int ix, const double* y, int iy, double* A, int lda) {
  cblas_dger(CblasColMajor, m, n, a, x, ix, y, iy, A, lda);
}
inline void gemm(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int m, int n, int k, float a, const float* A, int lda,
                 const float* B, int ldb, float b, float* C, int ldc) {
  cblas_sgemm(CblasColMajor, ta, tb, m, n, k, a, A, lda, B, ldb, b, C, ldc);
}
inline void gemm(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int m, int n, int k, double a, const double* A, int lda,
                 const double* B, int ldb, double b, double* C, int ldc) {
  cblas_dgemm(CblasColMajor, ta, tb, m, n, k, a, A, lda, B, ldb, b, C, ldc);
}
inline void symm(CBLAS_SIDE s, CBLAS_UPLO u, int m, int n, float a, const float* A, int lda, const float* B, int ldb,
                 float b, float* C, int ldc) {
  cblas_ssymm(CblasColMajor, s, u, m, n, a, A, lda, B, ldb, b, C, ldc);
}
inline void symm(CBLAS_SIDE s, CBLAS_UPLO u, int m, int n, double a, const double* A, int lda, const double* B,
                 int ldb, double b, double* C, int ldc) {
  cblas_dsymm(CblasColMajor, s, u, m, n, a, A, lda, B, ldb, b, C, ldc);
}
inline void trsm(CBLAS_SIDE s, CBLAS_UPLO u, CBLAS_TRANSPOSE t, CBLAS_DIAG d, int m, int n, float a, const float* A,
                 int lda, float* B, int ldb) {
  cblas_strsm(CblasColMajor, s, u, t, d, m, n, a, A, lda, B, ldb);
}
inline void trsm(CBLAS_SIDE s, CBLAS_UPLO u, CBLAS_TRANSPOSE t, CBLAS_DIAG d, int m, int n, double a, const double* A,
                 int lda, double* B, int ldb) {
  cblas_dtrsm(CblasColMajor, s, u, t, d, m, n, a, A, lda, B, ldb);
}

// The complex routines, one name per operation for both precisions as above. OpenBLAS takes complex
// scalars and operands by address; cuComplex is two floats, as BLAS's complex is.
#define CASS_BLAS_COMPLEX_KERNELS(C, R, p, rp, pr)                                                                 \
  inline void axpy(int n, C a, const C* x, int ix, C* y, int iy) { cblas_##p##axpy(n, &a, x, ix, y, iy); }         \
  inline C dotu(int n, const C* x, int ix, const C* y, int iy) {                                                  \
    C r;                                                                                                          \
    cblas_##p##dotu_sub(n, x, ix, y, iy, &r);                                                                     \
    return r;                                                                                                     \
  }                                                                                                               \
  inline C dotc(int n, const C* x, int ix, const C* y, int iy) {                                                  \
    C r;                                                                                                          \
    cblas_##p##dotc_sub(n, x, ix, y, iy, &r);                                                                     \
    return r;                                                                                                     \
  }                                                                                                               \
  inline R nrm2(int n, const C* x, int ix) { return cblas_##rp##nrm2(n, x, ix); }                                 \
  inline R asum(int n, const C* x, int ix) { return cblas_##rp##asum(n, x, ix); }                                 \
  inline void scal(int n, C a, C* x, int ix) { cblas_##p##scal(n, &a, x, ix); }                                   \
  inline void scal(int n, R a, C* x, int ix) { cblas_##pr##scal(n, a, x, ix); }                                   \
  inline void copy(int n, const C* x, int ix, C* y, int iy) { cblas_##p##copy(n, x, ix, y, iy); }                 \
  inline void swap(int n, C* x, int ix, C* y, int iy) { cblas_##p##swap(n, x, ix, y, iy); }                       \
  inline int amax(int n, const C* x, int ix) { return static_cast<int>(cblas_i##p##amax(n, x, ix)); }             \
  inline int amin(int n, const C* x, int ix) { return static_cast<int>(cblas_i##p##amin(n, x, ix)); }             \
  inline void gemv(CBLAS_TRANSPOSE t, int m, int n, C a, const C* A, int lda, const C* x, int ix, C b, C* y,      \
                   int iy) {                                                                                      \
    cblas_##p##gemv(CblasColMajor, t, m, n, &a, A, lda, x, ix, &b, y, iy);                                        \
  }                                                                                                               \
  inline void gemm(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int m, int n, int k, C a, const C* A, int lda,         \
                   const C* B, int ldb, C b, C* Cm, int ldc) {                                                    \
    cblas_##p##gemm(CblasColMajor, ta, tb, m, n, k, &a, A, lda, B, ldb, &b, Cm, ldc);                             \
  }                                                                                                               \
  inline void gemm3m(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int m, int n, int k, C a, const C* A, int lda,       \
                     const C* B, int ldb, C b, C* Cm, int ldc) {                                                  \
    cblas_##p##gemm3m(CblasColMajor, ta, tb, m, n, k, &a, A, lda, B, ldb, &b, Cm, ldc);                           \
  }                                                                                                               \
  inline void herk(CBLAS_UPLO u, CBLAS_TRANSPOSE t, int n, int k, R a, const C* A, int lda, R b, C* Cm, int ldc) { \
    cblas_##p##herk(CblasColMajor, u, t, n, k, a, A, lda, b, Cm, ldc);                                            \
  }                                                                                                               \
  inline void syrk(CBLAS_UPLO u, CBLAS_TRANSPOSE t, int n, int k, C a, const C* A, int lda, C b, C* Cm, int ldc) { \
    cblas_##p##syrk(CblasColMajor, u, t, n, k, &a, A, lda, &b, Cm, ldc);                                          \
  }
CASS_BLAS_COMPLEX_KERNELS(cuComplex, float, c, sc, cs)
CASS_BLAS_COMPLEX_KERNELS(cuDoubleComplex, double, z, dz, zd)
#undef CASS_BLAS_COMPLEX_KERNELS

template <class T>
inline cublasStatus_t vector_call(cublasHandle_t h, int n) {
  if (h == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;
  return n < 0 ? CUBLAS_STATUS_INVALID_VALUE : CUBLAS_STATUS_SUCCESS;
}

// cuBLAS's index results are 1-based, and 0 for an empty vector or a non-positive stride.
template <class T, class F>
inline cublasStatus_t index_of(cublasHandle_t h, int n, const T* x, int incx, int* result, F pick) {
  if (h == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;
  *result = n <= 0 || incx <= 0 ? 0 : pick(n, x, incx) + 1;
  return CUBLAS_STATUS_SUCCESS;
}

template <class T>
inline cublasStatus_t gemm_call(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                                const T* alpha, const T* A, int lda, const T* B, int ldb, const T* beta, T* C,
                                int ldc) {
  cublasStatus_t s = gemm_checks(h, ta, tb, m, n, k, lda, ldb, ldc);
  if (s == CUBLAS_STATUS_SUCCESS && m > 0 && n > 0) gemm(op(ta), op(tb), m, n, k, *alpha, A, lda, B, ldb, *beta, C, ldc);
  return s;
}

template <class T>
inline cublasStatus_t gemm_strided(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                                   const T* alpha, const T* A, int lda, long long sa, const T* B, int ldb,
                                   long long sb, const T* beta, T* C, int ldc, long long sc, int batch) {
  cublasStatus_t s = gemm_checks(h, ta, tb, m, n, k, lda, ldb, ldc);
  if (s == CUBLAS_STATUS_SUCCESS && batch < 0) s = CUBLAS_STATUS_INVALID_VALUE;
  for (int i = 0; s == CUBLAS_STATUS_SUCCESS && i < batch; ++i)
    s = gemm_call(h, ta, tb, m, n, k, alpha, A + i * sa, lda, B + i * sb, ldb, beta, C + i * sc, ldc);
  return s;
}

template <class T>
inline cublasStatus_t gemm_batched(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                                   const T* alpha, const T* const A[], int lda, const T* const B[], int ldb,
                                   const T* beta, T* const C[], int ldc, int batch) {
  cublasStatus_t s = gemm_checks(h, ta, tb, m, n, k, lda, ldb, ldc);
  if (s == CUBLAS_STATUS_SUCCESS && batch < 0) s = CUBLAS_STATUS_INVALID_VALUE;
  for (int i = 0; s == CUBLAS_STATUS_SUCCESS && i < batch; ++i)
    s = gemm_call(h, ta, tb, m, n, k, alpha, A[i], lda, B[i], ldb, beta, C[i], ldc);
  return s;
}

// GemmEx: float, double and their complex run as such; half operands are widened to float, multiplied, and the
// result rounded back (what a GPU's fp32-accumulating half GEMM computes, to rounding).
inline std::vector<float> widened(const void* p, int rows, int cols, int ld) {
  std::vector<float> out(static_cast<size_t>(rows) * cols);
  const __half* h = static_cast<const __half*>(p);
  for (int c = 0; c < cols; ++c)
    for (int r = 0; r < rows; ++r) out[static_cast<size_t>(c) * rows + r] = __half2float(h[static_cast<size_t>(c) * ld + r]);
  return out;
}

inline float scalar_of(const void* p, cublasComputeType_t compute) {
  return compute == CUBLAS_COMPUTE_16F || compute == CUBLAS_COMPUTE_16F_PEDANTIC
             ? __half2float(*static_cast<const __half*>(p))
             : *static_cast<const float*>(p);
}

inline bool is_float_compute(cublasComputeType_t c) {
  return c == CUBLAS_COMPUTE_32F || c == CUBLAS_COMPUTE_32F_PEDANTIC || c == CUBLAS_COMPUTE_32F_FAST_16F ||
         c == CUBLAS_COMPUTE_32F_FAST_16BF || c == CUBLAS_COMPUTE_32F_FAST_TF32;
}

inline cublasStatus_t gemm_ex(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                              const void* alpha, const void* A, cudaDataType_t at, int lda, const void* B,
                              cudaDataType_t bt, int ldb, const void* beta, void* C, cudaDataType_t ct, int ldc,
                              cublasComputeType_t compute) {
  cublasStatus_t s = gemm_checks(h, ta, tb, m, n, k, lda, ldb, ldc);
  if (s != CUBLAS_STATUS_SUCCESS) return s;
  if (at == CUDA_R_32F && bt == CUDA_R_32F && ct == CUDA_R_32F && is_float_compute(compute))
    return gemm_call(h, ta, tb, m, n, k, static_cast<const float*>(alpha), static_cast<const float*>(A), lda,
                     static_cast<const float*>(B), ldb, static_cast<const float*>(beta), static_cast<float*>(C), ldc);
  if (at == CUDA_R_64F && bt == CUDA_R_64F && ct == CUDA_R_64F &&
      (compute == CUBLAS_COMPUTE_64F || compute == CUBLAS_COMPUTE_64F_PEDANTIC))
    return gemm_call(h, ta, tb, m, n, k, static_cast<const double*>(alpha), static_cast<const double*>(A), lda,
                     static_cast<const double*>(B), ldb, static_cast<const double*>(beta), static_cast<double*>(C), ldc);
  if (at == CUDA_C_32F && bt == CUDA_C_32F && ct == CUDA_C_32F && is_float_compute(compute))
    return gemm_call(h, ta, tb, m, n, k, static_cast<const cuComplex*>(alpha), static_cast<const cuComplex*>(A), lda,
                     static_cast<const cuComplex*>(B), ldb, static_cast<const cuComplex*>(beta),
                     static_cast<cuComplex*>(C), ldc);
  if (at == CUDA_C_64F && bt == CUDA_C_64F && ct == CUDA_C_64F &&
      (compute == CUBLAS_COMPUTE_64F || compute == CUBLAS_COMPUTE_64F_PEDANTIC))
    return gemm_call(h, ta, tb, m, n, k, static_cast<const cuDoubleComplex*>(alpha),
                     static_cast<const cuDoubleComplex*>(A), lda, static_cast<const cuDoubleComplex*>(B), ldb,
                     static_cast<const cuDoubleComplex*>(beta), static_cast<cuDoubleComplex*>(C), ldc);
  bool half_in = at == CUDA_R_16F && bt == CUDA_R_16F && (ct == CUDA_R_16F || ct == CUDA_R_32F);
  bool half_compute = compute == CUBLAS_COMPUTE_16F || compute == CUBLAS_COMPUTE_16F_PEDANTIC;
  if (!half_in || !(is_float_compute(compute) || (half_compute && ct == CUDA_R_16F))) return CUBLAS_STATUS_NOT_SUPPORTED;
  if (m == 0 || n == 0) return s;
  int ar = ta == CUBLAS_OP_N ? m : k, ac = ta == CUBLAS_OP_N ? k : m;
  int br = tb == CUBLAS_OP_N ? k : n, bc = tb == CUBLAS_OP_N ? n : k;
  std::vector<float> a = widened(A, ar, ac, lda), b = widened(B, br, bc, ldb), c;
  c = ct == CUDA_R_16F ? widened(C, m, n, ldc) : std::vector<float>();
  float* out = ct == CUDA_R_16F ? c.data() : static_cast<float*>(C);
  gemm(op(ta), op(tb), m, n, k, scalar_of(alpha, compute), a.data(), at_least_1(ar), b.data(), at_least_1(br),
       scalar_of(beta, compute), out, ct == CUDA_R_16F ? m : ldc);
  if (ct == CUDA_R_16F)
    for (int col = 0; col < n; ++col)
      for (int r = 0; r < m; ++r)
        static_cast<__half*>(C)[static_cast<size_t>(col) * ldc + r] = __float2half(c[static_cast<size_t>(col) * m + r]);
  return s;
}

inline size_t element_size(cudaDataType_t t) {
  return t == CUDA_C_64F ? 16 : t == CUDA_R_64F || t == CUDA_C_32F ? 8 : t == CUDA_R_16F ? 2 : 4;
}

// Strided vectors and matrices between "host" and "device" (both host memory): a copy to the
// host is recorded for the memory-level comparison, as cudaMemcpy2D's are.
inline cublasStatus_t strided_copy(int count, size_t width, const void* src, size_t spitch, void* dst, size_t dpitch,
                                   cudaMemcpyKind kind, int line) {
  if (count < 0 || width == 0 || spitch < width || dpitch < width) return CUBLAS_STATUS_INVALID_VALUE;
  ::cass::detail::copy_2d(dst, dpitch, src, spitch, width, static_cast<size_t>(count), kind, "bytes", line);
  return CUBLAS_STATUS_SUCCESS;
}

}  // namespace blas
}  // namespace cass

inline cublasStatus_t cublasCreate_v2(cublasHandle_t* h) {
  if (h == nullptr) return CUBLAS_STATUS_INVALID_VALUE;
  *h = new cublasContext();
  return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t cublasDestroy_v2(cublasHandle_t h) {
  if (h == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;
  delete h;
  return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t cublasGetVersion_v2(cublasHandle_t, int* version) {
  *version = CUBLAS_VERSION;
  return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t cublasSetStream_v2(cublasHandle_t h, cudaStream_t s) {
  if (h == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;
  h->stream = s;
  return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t cublasGetStream_v2(cublasHandle_t h, cudaStream_t* s) {
  if (h == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;
  *s = h->stream;
  return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t cublasSetPointerMode_v2(cublasHandle_t h, cublasPointerMode_t mode) {
  if (h == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (mode != CUBLAS_POINTER_MODE_HOST && mode != CUBLAS_POINTER_MODE_DEVICE) return CUBLAS_STATUS_INVALID_VALUE;
  h->pointer_mode = mode;
  return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t cublasGetPointerMode_v2(cublasHandle_t h, cublasPointerMode_t* mode) {
  if (h == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;
  *mode = h->pointer_mode;
  return CUBLAS_STATUS_SUCCESS;
}
// Accepted and remembered: the CPU computes in the precision of the type whatever the math mode.
inline cublasStatus_t cublasSetMathMode(cublasHandle_t h, cublasMath_t mode) {
  if (h == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;
  h->math = mode;
  return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t cublasGetMathMode(cublasHandle_t h, cublasMath_t* mode) {
  if (h == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;
  *mode = h->math;
  return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t cublasSetAtomicsMode(cublasHandle_t h, cublasAtomicsMode_t mode) {
  if (h == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;
  h->atomics = mode;
  return CUBLAS_STATUS_SUCCESS;
}
inline const char* cublasGetStatusName(cublasStatus_t s) {
  switch (s) {
    case CUBLAS_STATUS_SUCCESS: return "CUBLAS_STATUS_SUCCESS";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
    case CUBLAS_STATUS_ALLOC_FAILED: return "CUBLAS_STATUS_ALLOC_FAILED";
    case CUBLAS_STATUS_INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE";
    case CUBLAS_STATUS_ARCH_MISMATCH: return "CUBLAS_STATUS_ARCH_MISMATCH";
    case CUBLAS_STATUS_MAPPING_ERROR: return "CUBLAS_STATUS_MAPPING_ERROR";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "CUBLAS_STATUS_EXECUTION_FAILED";
    case CUBLAS_STATUS_INTERNAL_ERROR: return "CUBLAS_STATUS_INTERNAL_ERROR";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "CUBLAS_STATUS_NOT_SUPPORTED";
    case CUBLAS_STATUS_LICENSE_ERROR: return "CUBLAS_STATUS_LICENSE_ERROR";
  }
  return "CUBLAS_STATUS_UNKNOWN";
}
inline const char* cublasGetStatusString(cublasStatus_t s) {
  switch (s) {
    case CUBLAS_STATUS_SUCCESS: return "success";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "the library was not initialized";
    case CUBLAS_STATUS_INVALID_VALUE: return "an invalid numeric value was used as an argument";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "the functionality requested is not supported";
    default: return cublasGetStatusName(s);
  }
}

inline cublasStatus_t cublasSetVector(int n, int elem, const void* x, int incx, void* y, int incy) {
  if (incx <= 0 || incy <= 0 || elem <= 0) return CUBLAS_STATUS_INVALID_VALUE;
  return ::cass::blas::strided_copy(n, elem, x, size_t(incx) * elem, y, size_t(incy) * elem, cudaMemcpyHostToDevice, 0);
}
inline cublasStatus_t cublasGetVector(int n, int elem, const void* x, int incx, void* y, int incy,
                                      int line = __builtin_LINE()) {
  if (incx <= 0 || incy <= 0 || elem <= 0) return CUBLAS_STATUS_INVALID_VALUE;
  return ::cass::blas::strided_copy(n, elem, x, size_t(incx) * elem, y, size_t(incy) * elem, cudaMemcpyDeviceToHost, line);
}
inline cublasStatus_t cublasSetMatrix(int rows, int cols, int elem, const void* A, int lda, void* B, int ldb) {
  if (rows < 0 || lda < rows || ldb < rows || elem <= 0) return CUBLAS_STATUS_INVALID_VALUE;
  if (rows == 0) return CUBLAS_STATUS_SUCCESS;
  return ::cass::blas::strided_copy(cols, size_t(rows) * elem, A, size_t(lda) * elem, B, size_t(ldb) * elem,
                                    cudaMemcpyHostToDevice, 0);
}
inline cublasStatus_t cublasGetMatrix(int rows, int cols, int elem, const void* A, int lda, void* B, int ldb,
                                      int line = __builtin_LINE()) {
  if (rows < 0 || lda < rows || ldb < rows || elem <= 0) return CUBLAS_STATUS_INVALID_VALUE;
  if (rows == 0) return CUBLAS_STATUS_SUCCESS;
  return ::cass::blas::strided_copy(cols, size_t(rows) * elem, A, size_t(lda) * elem, B, size_t(ldb) * elem,
                                    cudaMemcpyDeviceToHost, line);
}
inline cublasStatus_t cublasSetVectorAsync(int n, int elem, const void* x, int incx, void* y, int incy, cudaStream_t) {
  return cublasSetVector(n, elem, x, incx, y, incy);
}
inline cublasStatus_t cublasGetVectorAsync(int n, int elem, const void* x, int incx, void* y, int incy, cudaStream_t,
                                           int line = __builtin_LINE()) {
  return cublasGetVector(n, elem, x, incx, y, incy, line);
}
inline cublasStatus_t cublasSetMatrixAsync(int rows, int cols, int elem, const void* A, int lda, void* B, int ldb,
                                           cudaStream_t) {
  return cublasSetMatrix(rows, cols, elem, A, lda, B, ldb);
}
inline cublasStatus_t cublasGetMatrixAsync(int rows, int cols, int elem, const void* A, int lda, void* B, int ldb,
                                           cudaStream_t, int line = __builtin_LINE()) {
  return cublasGetMatrix(rows, cols, elem, A, lda, B, ldb, line);
}

// The entry points every precision has, written once for S, D, C and Z (the _v2 names are cuBLAS's
// own; the plain names are its macros, below).
#define CASS_BLAS_EVERY(P, p, T)                                                                                     \
  inline cublasStatus_t cublas##P##axpy_v2(cublasHandle_t h, int n, const T* alpha, const T* x, int incx, T* y,    \
                                           int incy) {                                                             \
    cublasStatus_t s = ::cass::blas::vector_call<T>(h, n);                                                          \
    if (s == CUBLAS_STATUS_SUCCESS) ::cass::blas::axpy(n, *alpha, x, incx, y, incy);                                \
    return s;                                                                                                       \
  }                                                                                                                 \
  inline cublasStatus_t cublas##P##scal_v2(cublasHandle_t h, int n, const T* alpha, T* x, int incx) {              \
    cublasStatus_t s = ::cass::blas::vector_call<T>(h, n);                                                          \
    if (s == CUBLAS_STATUS_SUCCESS && incx > 0) ::cass::blas::scal(n, *alpha, x, incx);                             \
    return s;                                                                                                       \
  }                                                                                                                 \
  inline cublasStatus_t cublas##P##copy_v2(cublasHandle_t h, int n, const T* x, int incx, T* y, int incy) {        \
    cublasStatus_t s = ::cass::blas::vector_call<T>(h, n);                                                          \
    if (s == CUBLAS_STATUS_SUCCESS) ::cass::blas::copy(n, x, incx, y, incy);                                        \
    return s;                                                                                                       \
  }                                                                                                                 \
  inline cublasStatus_t cublas##P##swap_v2(cublasHandle_t h, int n, T* x, int incx, T* y, int incy) {              \
    cublasStatus_t s = ::cass::blas::vector_call<T>(h, n);                                                          \
    if (s == CUBLAS_STATUS_SUCCESS) ::cass::blas::swap(n, x, incx, y, incy);                                        \
    return s;                                                                                                       \
  }                                                                                                                 \
  inline cublasStatus_t cublasI##p##amax_v2(cublasHandle_t h, int n, const T* x, int incx, int* result) {          \
    return ::cass::blas::index_of(h, n, x, incx, result,                                                            \
                                  [](int n_, const T* x_, int i_) { return ::cass::blas::amax(n_, x_, i_); });     \
  }                                                                                                                 \
  inline cublasStatus_t cublasI##p##amin_v2(cublasHandle_t h, int n, const T* x, int incx, int* result) {          \
    return ::cass::blas::index_of(h, n, x, incx, result,                                                            \
                                  [](int n_, const T* x_, int i_) { return ::cass::blas::amin(n_, x_, i_); });     \
  }                                                                                                                 \
  inline cublasStatus_t cublas##P##gemv_v2(cublasHandle_t h, cublasOperation_t trans, int m, int n, const T* alpha, \
                                           const T* A, int lda, const T* x, int incx, const T* beta, T* y,         \
                                           int incy) {                                                             \
    if (h == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;                                                         \
    if (!::cass::blas::valid_op(trans) || m < 0 || n < 0 || lda < ::cass::blas::at_least_1(m) || incx == 0 ||       \
        incy == 0)                                                                                                  \
      return CUBLAS_STATUS_INVALID_VALUE;                                                                           \
    if (m > 0 && n > 0)                                                                                             \
      ::cass::blas::gemv(::cass::blas::op(trans), m, n, *alpha, A, lda, x, incx, *beta, y, incy);                  \
    return CUBLAS_STATUS_SUCCESS;                                                                                   \
  }                                                                                                                 \
  inline cublasStatus_t cublas##P##gemm_v2(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m,     \
                                           int n, int k, const T* alpha, const T* A, int lda, const T* B, int ldb, \
                                           const T* beta, T* C, int ldc) {                                         \
    return ::cass::blas::gemm_call(h, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);                        \
  }                                                                                                                 \
  inline cublasStatus_t cublas##P##gemmStridedBatched(                                                             \
      cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, const T* alpha,           \
      const T* A, int lda, long long sa, const T* B, int ldb, long long sb, const T* beta, T* C, int ldc,          \
      long long sc, int batch) {                                                                                    \
    return ::cass::blas::gemm_strided(h, ta, tb, m, n, k, alpha, A, lda, sa, B, ldb, sb, beta, C, ldc, sc, batch);  \
  }                                                                                                                 \
  inline cublasStatus_t cublas##P##gemmBatched(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, \
                                               int n, int k, const T* alpha, const T* const A[], int lda,          \
                                               const T* const B[], int ldb, const T* beta, T* const C[], int ldc,  \
                                               int batch) {                                                        \
    return ::cass::blas::gemm_batched(h, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, batch);              \
  }
// nrm2 and asum return a real R, named NP: S and D for the real types, Sc and Dz for the complex ones.
#define CASS_BLAS_NORMS(NP, T, R)                                                                                    \
  inline cublasStatus_t cublas##NP##nrm2_v2(cublasHandle_t h, int n, const T* x, int incx, R* result) {            \
    cublasStatus_t s = ::cass::blas::vector_call<T>(h, n);                                                          \
    if (s == CUBLAS_STATUS_SUCCESS) *result = n > 0 && incx > 0 ? ::cass::blas::nrm2(n, x, incx) : R(0);            \
    return s;                                                                                                       \
  }                                                                                                                 \
  inline cublasStatus_t cublas##NP##asum_v2(cublasHandle_t h, int n, const T* x, int incx, R* result) {            \
    cublasStatus_t s = ::cass::blas::vector_call<T>(h, n);                                                          \
    if (s == CUBLAS_STATUS_SUCCESS) *result = n > 0 && incx > 0 ? ::cass::blas::asum(n, x, incx) : R(0);            \
    return s;                                                                                                       \
  }
// The S and D entry points of each routine.
#define CASS_BLAS_REAL(P, p, T)                                                                                      \
  CASS_BLAS_EVERY(P, p, T)                                                                                           \
  CASS_BLAS_NORMS(P, T, T)                                                                                           \
  inline cublasStatus_t cublas##P##dot_v2(cublasHandle_t h, int n, const T* x, int incx, const T* y, int incy,     \
                                          T* result) {                                                             \
    cublasStatus_t s = ::cass::blas::vector_call<T>(h, n);                                                          \
    if (s == CUBLAS_STATUS_SUCCESS) *result = n > 0 ? ::cass::blas::dot(n, x, incx, y, incy) : T(0);                \
    return s;                                                                                                       \
  }                                                                                                                 \
  inline cublasStatus_t cublas##P##ger_v2(cublasHandle_t h, int m, int n, const T* alpha, const T* x, int incx,    \
                                          const T* y, int incy, T* A, int lda) {                                   \
    if (h == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;                                                         \
    if (m < 0 || n < 0 || incx == 0 || incy == 0 || lda < ::cass::blas::at_least_1(m))                              \
      return CUBLAS_STATUS_INVALID_VALUE;                                                                           \
    if (m > 0 && n > 0) ::cass::blas::ger(m, n, *alpha, x, incx, y, incy, A, lda);                                  \
    return CUBLAS_STATUS_SUCCESS;                                                                                   \
  }                                                                                                                 \
  inline cublasStatus_t cublas##P##symm_v2(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo, int m,   \
                                           int n, const T* alpha, const T* A, int lda, const T* B, int ldb,        \
                                           const T* beta, T* C, int ldc) {                                         \
    if (h == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;                                                         \
    int ka = side == CUBLAS_SIDE_LEFT ? m : n;                                                                      \
    if (m < 0 || n < 0 || lda < ::cass::blas::at_least_1(ka) || ldb < ::cass::blas::at_least_1(m) ||               \
        ldc < ::cass::blas::at_least_1(m) || uplo == CUBLAS_FILL_MODE_FULL)                                         \
      return CUBLAS_STATUS_INVALID_VALUE;                                                                           \
    if (m > 0 && n > 0)                                                                                             \
      ::cass::blas::symm(::cass::blas::side(side), ::cass::blas::uplo(uplo), m, n, *alpha, A, lda, B, ldb, *beta,  \
                         C, ldc);                                                                                   \
    return CUBLAS_STATUS_SUCCESS;                                                                                   \
  }                                                                                                                 \
  inline cublasStatus_t cublas##P##trsm_v2(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo,          \
                                           cublasOperation_t trans, cublasDiagType_t diag, int m, int n,           \
                                           const T* alpha, const T* A, int lda, T* B, int ldb) {                   \
    if (h == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;                                                         \
    int ka = side == CUBLAS_SIDE_LEFT ? m : n;                                                                      \
    if (m < 0 || n < 0 || !::cass::blas::valid_op(trans) || lda < ::cass::blas::at_least_1(ka) ||                   \
        ldb < ::cass::blas::at_least_1(m) || uplo == CUBLAS_FILL_MODE_FULL)                                         \
      return CUBLAS_STATUS_INVALID_VALUE;                                                                           \
    if (m > 0 && n > 0)                                                                                             \
      ::cass::blas::trsm(::cass::blas::side(side), ::cass::blas::uplo(uplo), ::cass::blas::op(trans),               \
                         ::cass::blas::diag(diag), m, n, *alpha, A, lda, B, ldb);                                   \
    return CUBLAS_STATUS_SUCCESS;                                                                                   \
  }
CASS_BLAS_REAL(S, s, float)
CASS_BLAS_REAL(D, d, double)
#undef CASS_BLAS_REAL

// The C and Z entry points (and Sc/Dz nrm2 and asum, Cs/Zd scal with a real scalar), written once.
// Their index and norm results follow the real ones' conventions; Icamax and Scasum measure an
// element as |re| + |im|, as cuBLAS and BLAS do.
#define CASS_BLAS_COMPLEX(P, p, T, R, RP, PR)                                                                        \
  CASS_BLAS_EVERY(P, p, T)                                                                                           \
  CASS_BLAS_NORMS(RP, T, R)                                                                                          \
  inline cublasStatus_t cublas##P##dotu_v2(cublasHandle_t h, int n, const T* x, int incx, const T* y, int incy,    \
                                           T* result) {                                                            \
    cublasStatus_t s = ::cass::blas::vector_call<T>(h, n);                                                          \
    if (s == CUBLAS_STATUS_SUCCESS) *result = n > 0 ? ::cass::blas::dotu(n, x, incx, y, incy) : T{0, 0};            \
    return s;                                                                                                       \
  }                                                                                                                 \
  inline cublasStatus_t cublas##P##dotc_v2(cublasHandle_t h, int n, const T* x, int incx, const T* y, int incy,    \
                                           T* result) {                                                            \
    cublasStatus_t s = ::cass::blas::vector_call<T>(h, n);                                                          \
    if (s == CUBLAS_STATUS_SUCCESS) *result = n > 0 ? ::cass::blas::dotc(n, x, incx, y, incy) : T{0, 0};            \
    return s;                                                                                                       \
  }                                                                                                                 \
  inline cublasStatus_t cublas##PR##scal_v2(cublasHandle_t h, int n, const R* alpha, T* x, int incx) {             \
    cublasStatus_t s = ::cass::blas::vector_call<T>(h, n);                                                          \
    if (s == CUBLAS_STATUS_SUCCESS && incx > 0) ::cass::blas::scal(n, *alpha, x, incx);                             \
    return s;                                                                                                       \
  }                                                                                                                 \
  inline cublasStatus_t cublas##P##gemm3m(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m,      \
                                          int n, int k, const T* alpha, const T* A, int lda, const T* B, int ldb,  \
                                          const T* beta, T* C, int ldc) {                                          \
    cublasStatus_t s = ::cass::blas::gemm_checks(h, ta, tb, m, n, k, lda, ldb, ldc);                                \
    if (s == CUBLAS_STATUS_SUCCESS && m > 0 && n > 0)                                                               \
      ::cass::blas::gemm3m(::cass::blas::op(ta), ::cass::blas::op(tb), m, n, k, *alpha, A, lda, B, ldb, *beta, C,   \
                           ldc);                                                                                    \
    return s;                                                                                                       \
  }                                                                                                                 \
  inline cublasStatus_t cublas##P##herk_v2(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, int n, \
                                           int k, const R* alpha, const T* A, int lda, const R* beta, T* C,        \
                                           int ldc) {                                                              \
    cublasStatus_t s = ::cass::blas::rank_k_checks(h, uplo, trans, CUBLAS_OP_C, n, k, lda, ldc);                    \
    if (s == CUBLAS_STATUS_SUCCESS && n > 0)                                                                        \
      ::cass::blas::herk(::cass::blas::uplo(uplo), ::cass::blas::op(trans), n, k, *alpha, A, lda, *beta, C, ldc);   \
    return s;                                                                                                       \
  }                                                                                                                 \
  inline cublasStatus_t cublas##P##syrk_v2(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, int n, \
                                           int k, const T* alpha, const T* A, int lda, const T* beta, T* C,        \
                                           int ldc) {                                                              \
    cublasStatus_t s = ::cass::blas::rank_k_checks(h, uplo, trans, CUBLAS_OP_T, n, k, lda, ldc);                    \
    if (s == CUBLAS_STATUS_SUCCESS && n > 0)                                                                        \
      ::cass::blas::syrk(::cass::blas::uplo(uplo), ::cass::blas::op(trans), n, k, *alpha, A, lda, *beta, C, ldc);   \
    return s;                                                                                                       \
  }
CASS_BLAS_COMPLEX(C, c, cuComplex, float, Sc, Cs)
CASS_BLAS_COMPLEX(Z, z, cuDoubleComplex, double, Dz, Zd)
#undef CASS_BLAS_COMPLEX
#undef CASS_BLAS_NORMS
#undef CASS_BLAS_EVERY

inline cublasStatus_t cublasGemmEx(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                                   const void* alpha, const void* A, cudaDataType_t at, int lda, const void* B,
                                   cudaDataType_t bt, int ldb, const void* beta, void* C, cudaDataType_t ct, int ldc,
                                   cublasComputeType_t compute, cublasGemmAlgo_t = CUBLAS_GEMM_DEFAULT) {
  return ::cass::blas::gemm_ex(h, ta, tb, m, n, k, alpha, A, at, lda, B, bt, ldb, beta, C, ct, ldc, compute);
}
inline cublasStatus_t cublasGemmStridedBatchedEx(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m,
                                                 int n, int k, const void* alpha, const void* A, cudaDataType_t at,
                                                 int lda, long long sa, const void* B, cudaDataType_t bt, int ldb,
                                                 long long sb, const void* beta, void* C, cudaDataType_t ct, int ldc,
                                                 long long sc, int batch, cublasComputeType_t compute,
                                                 cublasGemmAlgo_t = CUBLAS_GEMM_DEFAULT) {
  if (batch < 0) return CUBLAS_STATUS_INVALID_VALUE;
  cublasStatus_t s = ::cass::blas::gemm_checks(h, ta, tb, m, n, k, lda, ldb, ldc);
  const char* a = static_cast<const char*>(A);
  const char* b = static_cast<const char*>(B);
  char* c = static_cast<char*>(C);
  for (int i = 0; s == CUBLAS_STATUS_SUCCESS && i < batch; ++i)
    s = ::cass::blas::gemm_ex(h, ta, tb, m, n, k, alpha, a + i * sa * ::cass::blas::element_size(at), at, lda,
                              b + i * sb * ::cass::blas::element_size(bt), bt, ldb, beta,
                              c + i * sc * ::cass::blas::element_size(ct), ct, ldc, compute);
  return s;
}
// Code written for CUDA 10 passes a cudaDataType_t as the compute type; cuBLAS's C++ overloads accept it.
inline cublasComputeType_t cass_blas_compute_of(cudaDataType_t t) {
  return t == CUDA_R_64F || t == CUDA_C_64F ? CUBLAS_COMPUTE_64F
         : t == CUDA_R_16F                  ? CUBLAS_COMPUTE_16F
                                            : CUBLAS_COMPUTE_32F;
}
inline cublasStatus_t cublasGemmEx(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                                   const void* alpha, const void* A, cudaDataType_t at, int lda, const void* B,
                                   cudaDataType_t bt, int ldb, const void* beta, void* C, cudaDataType_t ct, int ldc,
                                   cudaDataType_t compute, cublasGemmAlgo_t algo = CUBLAS_GEMM_DEFAULT) {
  return cublasGemmEx(h, ta, tb, m, n, k, alpha, A, at, lda, B, bt, ldb, beta, C, ct, ldc,
                      cass_blas_compute_of(compute), algo);
}

// cuBLAS's own macros: the plain names are the _v2 functions.
#define cublasCreate cublasCreate_v2
#define cublasDestroy cublasDestroy_v2
#define cublasGetVersion cublasGetVersion_v2
#define cublasSetStream cublasSetStream_v2
#define cublasGetStream cublasGetStream_v2
#define cublasSetPointerMode cublasSetPointerMode_v2
#define cublasGetPointerMode cublasGetPointerMode_v2
#define cublasSaxpy cublasSaxpy_v2
#define cublasDaxpy cublasDaxpy_v2
#define cublasSdot cublasSdot_v2
#define cublasDdot cublasDdot_v2
#define cublasSnrm2 cublasSnrm2_v2
#define cublasDnrm2 cublasDnrm2_v2
#define cublasSasum cublasSasum_v2
#define cublasDasum cublasDasum_v2
#define cublasSscal cublasSscal_v2
#define cublasDscal cublasDscal_v2
#define cublasScopy cublasScopy_v2
#define cublasDcopy cublasDcopy_v2
#define cublasSswap cublasSswap_v2
#define cublasDswap cublasDswap_v2
#define cublasIsamax cublasIsamax_v2
#define cublasIdamax cublasIdamax_v2
#define cublasIsamin cublasIsamin_v2
#define cublasIdamin cublasIdamin_v2
#define cublasSgemv cublasSgemv_v2
#define cublasDgemv cublasDgemv_v2
#define cublasSger cublasSger_v2
#define cublasDger cublasDger_v2
#define cublasSgemm cublasSgemm_v2
#define cublasDgemm cublasDgemm_v2
#define cublasSsymm cublasSsymm_v2
#define cublasDsymm cublasDsymm_v2
#define cublasStrsm cublasStrsm_v2
#define cublasDtrsm cublasDtrsm_v2
#define cublasCaxpy cublasCaxpy_v2
#define cublasCdotu cublasCdotu_v2
#define cublasCdotc cublasCdotc_v2
#define cublasCscal cublasCscal_v2
#define cublasCcopy cublasCcopy_v2
#define cublasCswap cublasCswap_v2
#define cublasCgemv cublasCgemv_v2
#define cublasCgemm cublasCgemm_v2
#define cublasCherk cublasCherk_v2
#define cublasCsyrk cublasCsyrk_v2
#define cublasCsscal cublasCsscal_v2
#define cublasScnrm2 cublasScnrm2_v2
#define cublasScasum cublasScasum_v2
#define cublasIcamax cublasIcamax_v2
#define cublasIcamin cublasIcamin_v2
#define cublasZaxpy cublasZaxpy_v2
#define cublasZdotu cublasZdotu_v2
#define cublasZdotc cublasZdotc_v2
#define cublasZscal cublasZscal_v2
#define cublasZcopy cublasZcopy_v2
#define cublasZswap cublasZswap_v2
#define cublasZgemv cublasZgemv_v2
#define cublasZgemm cublasZgemm_v2
#define cublasZherk cublasZherk_v2
#define cublasZsyrk cublasZsyrk_v2
#define cublasZdscal cublasZdscal_v2
#define cublasDznrm2 cublasDznrm2_v2
#define cublasDzasum cublasDzasum_v2
#define cublasIzamax cublasIzamax_v2
#define cublasIzamin cublasIzamin_v2
