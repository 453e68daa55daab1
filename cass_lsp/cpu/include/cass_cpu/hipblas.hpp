// hipBLAS on the CPU runtime: its names mapped onto the cuBLAS implementation (blas.hpp).
#pragma once
#include <type_traits>

#include "blas.hpp"

// The plain renames (hipblasSgemm -> cublasSgemm, HIPBLAS_OP_N -> CUBLAS_OP_N, ...) of every cuBLAS
// name blas.hpp defines, generated from the API tables by cass_lsp/cpu/hip_names.py; what differs
// from a rename is written out here.
#include "hipblas_names.hpp"

inline const char* hipblasStatusToString(cublasStatus_t s) { return cublasGetStatusName(s); }

// hipBLAS before ROCm 6 spells its complex operands with classes of its own, laid out as cuComplex
// and cuDoubleComplex are; from ROCm 6 the _v2 names (and, under HIPBLAS_V2, the plain names) take
// hipComplex, which is cuComplex here. The plain names take either.
#define CASS_HIPBLAS_COMPLEX(N, R)                          \
  typedef struct N {                                        \
   private:                                                 \
    R x, y;                                                 \
                                                            \
   public:                                                  \
    N() = default;                                          \
    N(R r, R i = 0) : x(r), y(i) {}                         \
    R real() const { return x; }                            \
    R imag() const { return y; }                            \
    void real(R r) { x = r; }                               \
    void imag(R i) { y = i; }                               \
  } N;
CASS_HIPBLAS_COMPLEX(hipblasComplex, float)
CASS_HIPBLAS_COMPLEX(hipblasDoubleComplex, double)
#undef CASS_HIPBLAS_COMPLEX
static_assert(sizeof(hipblasComplex) == sizeof(cuComplex) && sizeof(hipblasDoubleComplex) == sizeof(cuDoubleComplex),
              "hipBLAS's complex classes are two scalars, as cuComplex is");

namespace cass {
namespace blas {
// An argument of a plain hipBLAS name as the cuBLAS routine takes it: hipBLAS's complex classes as
// cuComplex (through pointers and arrays of pointers), anything else as it is.
template <class T>
struct cublas_of { using type = T; };
template <>
struct cublas_of<hipblasComplex> { using type = cuComplex; };
template <>
struct cublas_of<hipblasDoubleComplex> { using type = cuDoubleComplex; };
template <class T>
struct cublas_of<const T> { using type = const typename cublas_of<T>::type; };
template <class T>
struct cublas_of<T*> { using type = typename cublas_of<T>::type*; };
template <class T>
inline typename cublas_of<T>::type as_cublas(T value) {
  if constexpr (std::is_same_v<typename cublas_of<T>::type, T>)
    return value;
  else
    return reinterpret_cast<typename cublas_of<T>::type>(value);
}
}  // namespace blas
}  // namespace cass

// The plain names of the complex routines (not in the API tables, which list their _v2 names).
#define CASS_HIPBLAS_PLAIN(N)                                                 \
  template <class... A>                                                       \
  inline cublasStatus_t hipblas##N(A... args) {                               \
    return hipblas##N##_v2(::cass::blas::as_cublas(args)...);                 \
  }
#define CASS_HIPBLAS_PLAIN_PRECISION(P, p, RP, PR)                                                            \
  CASS_HIPBLAS_PLAIN(P##axpy) CASS_HIPBLAS_PLAIN(P##dotu) CASS_HIPBLAS_PLAIN(P##dotc)                         \
  CASS_HIPBLAS_PLAIN(P##scal) CASS_HIPBLAS_PLAIN(PR##scal) CASS_HIPBLAS_PLAIN(RP##nrm2)                       \
  CASS_HIPBLAS_PLAIN(RP##asum) CASS_HIPBLAS_PLAIN(P##copy) CASS_HIPBLAS_PLAIN(P##swap)                        \
  CASS_HIPBLAS_PLAIN(I##p##amax) CASS_HIPBLAS_PLAIN(I##p##amin) CASS_HIPBLAS_PLAIN(P##gemv)                   \
  CASS_HIPBLAS_PLAIN(P##gemm) CASS_HIPBLAS_PLAIN(P##gemmBatched) CASS_HIPBLAS_PLAIN(P##gemmStridedBatched)    \
  CASS_HIPBLAS_PLAIN(P##herk) CASS_HIPBLAS_PLAIN(P##syrk)
CASS_HIPBLAS_PLAIN_PRECISION(C, c, Sc, Cs)
CASS_HIPBLAS_PLAIN_PRECISION(Z, z, Dz, Zd)
#undef CASS_HIPBLAS_PLAIN_PRECISION
#undef CASS_HIPBLAS_PLAIN
