// __half / __half2 basics: storage, conversions (round to nearest even) and arithmetic through float.
#pragma once
#include <cmath>
#include <cstring>

#include "float16_ops.hpp"
#include "half_bits.hpp"
#include "math.hpp"
#include "types.hpp"

struct __half {
  unsigned short __x;
  __half() = default;  // trivial, so __shared__ __half arrays need no per-thread construction
  __half(float f) : __x(::cass::detail::float_to_half_bits(f)) {}
  __half(double d) : __x(::cass::detail::float_to_half_bits(static_cast<float>(d))) {}
  __half(int i) : __x(::cass::detail::float_to_half_bits(static_cast<float>(i))) {}
  operator float() const { return ::cass::detail::half_bits_to_float(__x); }
  __half& operator+=(const __half& o) { return *this = __half(float(*this) + float(o)); }
  __half& operator-=(const __half& o) { return *this = __half(float(*this) - float(o)); }
  __half& operator*=(const __half& o) { return *this = __half(float(*this) * float(o)); }
  __half& operator/=(const __half& o) { return *this = __half(float(*this) / float(o)); }
};
using half = __half;
struct __attribute__((aligned(4))) __half2 {
  __half x, y;
  __half2() = default;  // trivial, as __half's
  __half2(const __half& a, const __half& b) : x(a), y(b) {}  // CUDA's: `half2 value(0.f, 0.f)` converts each
};
using half2 = __half2;
typedef unsigned short __half_raw_bits;

CASS_FLOAT16_OPERATORS(__half)
inline __half operator-(const __half& a) { return __half(-float(a)); }

inline __half __float2half(float f) { return __half(f); }
inline float __half2float(__half h) { return float(h); }
namespace cass {
namespace detail {
// The half next to h toward +inf (up) or -inf, on the bits: magnitudes are ordered like integers.
inline __half half_step(__half h, bool up) {
  unsigned short b = h.__x;
  bool negative = (b & 0x8000u) != 0;
  if ((b & 0x7fffu) == 0) b = up ? 0x0001u : 0x8001u;  // from either zero to the smallest subnormal
  else if (up != negative) ++b;                         // away from zero
  else --b;                                             // toward zero
  __half r;
  r.__x = b;
  return r;
}
// float to half in mode M: to nearest, then one step where that went the wrong way (as to_floating).
template <int M>
inline __half to_half(float f) {
  __half h(f);
  if (M == kRn || f != f) return h;
  float back = float(h);
  if (M == kRu && back < f) return half_step(h, true);
  if (M == kRd && back > f) return half_step(h, false);
  if (M == kRz && std::fabs(back) > std::fabs(f)) return half_step(h, back < 0);
  return h;
}
}  // namespace detail
}  // namespace cass
// Every half is a float exactly, so the integer conversions go through float's.
#define CASS_HALF_CONVERSIONS(mode, M)                                                                          \
  inline __half __float2half_##mode(float f) { return ::cass::detail::to_half<M>(f); }                          \
  inline __half __int2half_##mode(int i) { return ::cass::detail::to_half<M>(__int2float_##mode(i)); }         \
  CASS_FLOAT16_TO_INTEGERS(__half, half, mode, M)
CASS_HALF_CONVERSIONS(rz, ::cass::detail::kRz)
CASS_HALF_CONVERSIONS(ru, ::cass::detail::kRu)
CASS_HALF_CONVERSIONS(rd, ::cass::detail::kRd)
CASS_HALF_CONVERSIONS(rn, ::cass::detail::kRn)
#undef CASS_HALF_CONVERSIONS
inline unsigned short __half_as_ushort(__half h) { return h.__x; }
inline short __half_as_short(__half h) { return static_cast<short>(h.__x); }
inline __half __ushort_as_half(unsigned short u) {
  __half h;
  h.__x = u;
  return h;
}
inline __half __short_as_half(short s) { return __ushort_as_half(static_cast<unsigned short>(s)); }
CASS_FLOAT16_FUNCTIONS(__half)
inline __half __habs(__half a) { return __half(fabsf(float(a))); }
inline __half __hfma(__half a, __half b, __half c) { return __half(fmaf(float(a), float(b), float(c))); }
inline bool __hisinf(__half a) { return std::isinf(float(a)); }
// The half math, through float (one rounding to half at the end), and the __half2 forms, lane by lane.
#define CASS_HALF_MATH(name, name2, expr) CASS_FLOAT16_MATH(__half, __half2, name, name2, expr)
CASS_HALF_MATH(hsqrt, h2sqrt, sqrtf(x))
CASS_HALF_MATH(hrsqrt, h2rsqrt, 1.0f / sqrtf(x))
CASS_HALF_MATH(hexp, h2exp, expf(x))
CASS_HALF_MATH(hlog, h2log, logf(x))
CASS_HALF_MATH(hceil, h2ceil, ceilf(x))
CASS_HALF_MATH(hfloor, h2floor, floorf(x))
CASS_HALF_MATH(hrint, h2rint, rintf(x))
CASS_HALF_MATH(htrunc, h2trunc, truncf(x))
CASS_HALF_MATH(hsin, h2sin, sinf(x))
CASS_HALF_MATH(hcos, h2cos, cosf(x))
CASS_HALF_MATH(hexp2, h2exp2, exp2f(x))
CASS_HALF_MATH(hexp10, h2exp10, exp10f(x))
CASS_HALF_MATH(hlog2, h2log2, log2f(x))
CASS_HALF_MATH(hlog10, h2log10, log10f(x))
CASS_HALF_MATH(hrcp, h2rcp, 1.0f / x)
CASS_HALF_MATH(htanh, h2tanh, tanhf(x))
#undef CASS_HALF_MATH
// fma clamped to [0, 1] (_sat) or at 0 from below (_relu, NaN kept), rounded once.
inline __half __hfma_sat(__half a, __half b, __half c) { return __half(__saturatef(fmaf(float(a), float(b), float(c)))); }
inline __half __hfma_relu(__half a, __half b, __half c) {
  float r = fmaf(float(a), float(b), float(c));
  return __half(r < 0.0f ? 0.0f : r);
}
inline __half2 __hfma2_sat(__half2 a, __half2 b, __half2 c) {
  return __half2{__hfma_sat(a.x, b.x, c.x), __hfma_sat(a.y, b.y, c.y)};
}
inline __half2 __hfma2_relu(__half2 a, __half2 b, __half2 c) {
  return __half2{__hfma_relu(a.x, b.x, c.x), __hfma_relu(a.y, b.y, c.y)};
}

inline __half2 __halves2half2(__half a, __half b) { return __half2{a, b}; }
inline __half2 __floats2half2_rn(float a, float b) { return __half2{__half(a), __half(b)}; }
inline __half2 __float2half2_rn(float a) { return __half2{__half(a), __half(a)}; }
inline __half2 __half2half2(__half a) { return __half2{a, a}; }
inline float2 __half22float2(__half2 h) { return float2{float(h.x), float(h.y)}; }
inline __half2 __float22half2_rn(float2 f) { return __half2{__half(f.x), __half(f.y)}; }
inline __half __low2half(__half2 h) { return h.x; }
inline __half __high2half(__half2 h) { return h.y; }
inline __half2 __lows2half2(__half2 a, __half2 b) { return __half2{a.x, b.x}; }
inline __half2 __highs2half2(__half2 a, __half2 b) { return __half2{a.y, b.y}; }
CASS_FLOAT16_PAIRS(__half2)
