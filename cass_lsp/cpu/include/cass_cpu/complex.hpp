// cuComplex.h's types and functions (hip/hip_complex.h maps HIP's names onto them, so an original
// and its translation run the same arithmetic). The types are CUDA's: float2 and double2. Division
// and absolute value scale their operands the way cuComplex.h does, so a quotient or modulus near
// the float range's ends is what CUDA's is.
#pragma once
#include <cmath>

#include "device.hpp"
#include "types.hpp"

typedef float2 cuFloatComplex;
typedef double2 cuDoubleComplex;
typedef cuFloatComplex cuComplex;

// Each name is a parameter so that the runtime's headers spell it (cass_lsp/cpu/hip_names.py maps
// HIP's names onto the names they spell).
#define CASS_COMPLEX(C, R, REAL, IMAG, CONJ, ADD, SUB, MUL, DIV, ABS, FMA)                                \
  __host__ __device__ inline R REAL(C x) { return x.x; }                                                  \
  __host__ __device__ inline R IMAG(C x) { return x.y; }                                                  \
  __host__ __device__ inline C CONJ(C x) { return C{x.x, -x.y}; }                                         \
  __host__ __device__ inline C ADD(C x, C y) { return C{x.x + y.x, x.y + y.y}; }                          \
  __host__ __device__ inline C SUB(C x, C y) { return C{x.x - y.x, x.y - y.y}; }                          \
  __host__ __device__ inline C MUL(C x, C y) { return C{x.x * y.x - x.y * y.y, x.x * y.y + x.y * y.x}; }  \
  __host__ __device__ inline C DIV(C x, C y) {                                                            \
    R scale = R(1) / (std::fabs(y.x) + std::fabs(y.y));                                                   \
    R xr = x.x * scale, xi = x.y * scale, yr = y.x * scale, yi = y.y * scale;                             \
    R inverse = R(1) / (yr * yr + yi * yi);                                                               \
    return C{(xr * yr + xi * yi) * inverse, (xi * yr - xr * yi) * inverse};                               \
  }                                                                                                       \
  __host__ __device__ inline R ABS(C x) {                                                                 \
    R a = std::fabs(x.x), b = std::fabs(x.y);                                                             \
    R v = a > b ? a : b, w = a > b ? b : a;                                                               \
    if (v == R(0) || std::isinf(v) || std::isinf(w)) return v + w;                                        \
    R t = w / v;                                                                                          \
    return v * std::sqrt(R(1) + t * t);                                                                   \
  }                                                                                                       \
  __host__ __device__ inline C FMA(C x, C y, C d) {                                                       \
    R re = x.x * y.x + d.x, im = x.x * y.y + d.y;                                                         \
    return C{-(x.y * y.y) + re, x.y * y.x + im};                                                          \
  }
CASS_COMPLEX(cuFloatComplex, float, cuCrealf, cuCimagf, cuConjf, cuCaddf, cuCsubf, cuCmulf, cuCdivf, cuCabsf, cuCfmaf)
CASS_COMPLEX(cuDoubleComplex, double, cuCreal, cuCimag, cuConj, cuCadd, cuCsub, cuCmul, cuCdiv, cuCabs, cuCfma)
#undef CASS_COMPLEX

__host__ __device__ inline cuFloatComplex make_cuFloatComplex(float r, float i) { return cuFloatComplex{r, i}; }
__host__ __device__ inline cuDoubleComplex make_cuDoubleComplex(double r, double i) { return cuDoubleComplex{r, i}; }
__host__ __device__ inline cuComplex make_cuComplex(float r, float i) { return cuComplex{r, i}; }
__host__ __device__ inline cuDoubleComplex cuComplexFloatToDouble(cuFloatComplex c) {
  return cuDoubleComplex{static_cast<double>(c.x), static_cast<double>(c.y)};
}
__host__ __device__ inline cuFloatComplex cuComplexDoubleToFloat(cuDoubleComplex c) {
  return cuFloatComplex{static_cast<float>(c.x), static_cast<float>(c.y)};
}
