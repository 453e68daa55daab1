// __half / __half2 basics: storage, conversions (round to nearest even) and arithmetic through float.
#pragma once
#include <cmath>
#include <cstring>

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

inline __half operator+(const __half& a, const __half& b) { return __half(float(a) + float(b)); }
inline __half operator-(const __half& a, const __half& b) { return __half(float(a) - float(b)); }
inline __half operator*(const __half& a, const __half& b) { return __half(float(a) * float(b)); }
inline __half operator/(const __half& a, const __half& b) { return __half(float(a) / float(b)); }
inline __half operator-(const __half& a) { return __half(-float(a)); }
inline bool operator==(const __half& a, const __half& b) { return float(a) == float(b); }
inline bool operator!=(const __half& a, const __half& b) { return float(a) != float(b); }
inline bool operator<(const __half& a, const __half& b) { return float(a) < float(b); }
inline bool operator<=(const __half& a, const __half& b) { return float(a) <= float(b); }
inline bool operator>(const __half& a, const __half& b) { return float(a) > float(b); }
inline bool operator>=(const __half& a, const __half& b) { return float(a) >= float(b); }

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
  inline int __half2int_##mode(__half h) { return ::cass::detail::to_integer<int, M>(float(h)); }               \
  inline unsigned int __half2uint_##mode(__half h) { return ::cass::detail::to_integer<unsigned int, M>(float(h)); } \
  inline short __half2short_##mode(__half h) { return ::cass::detail::to_integer<short, M>(float(h)); }         \
  inline unsigned short __half2ushort_##mode(__half h) {                                                        \
    return ::cass::detail::to_integer<unsigned short, M>(float(h));                                             \
  }                                                                                                             \
  inline long long __half2ll_##mode(__half h) { return ::cass::detail::to_integer<long long, M>(float(h)); }    \
  inline unsigned long long __half2ull_##mode(__half h) {                                                       \
    return ::cass::detail::to_integer<unsigned long long, M>(float(h));                                         \
  }
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
inline __half __hadd(__half a, __half b) { return a + b; }
inline __half __hsub(__half a, __half b) { return a - b; }
inline __half __hmul(__half a, __half b) { return a * b; }
inline __half __hdiv(__half a, __half b) { return a / b; }
inline __half __hneg(__half a) { return -a; }
inline __half __habs(__half a) { return __half(fabsf(float(a))); }
inline __half __hfma(__half a, __half b, __half c) { return __half(fmaf(float(a), float(b), float(c))); }
inline __half __hmax(__half a, __half b) { return float(a) > float(b) ? a : b; }
inline __half __hmin(__half a, __half b) { return float(a) < float(b) ? a : b; }
inline bool __heq(__half a, __half b) { return a == b; }
inline bool __hne(__half a, __half b) { return a != b; }
inline bool __hlt(__half a, __half b) { return a < b; }
inline bool __hle(__half a, __half b) { return a <= b; }
inline bool __hgt(__half a, __half b) { return a > b; }
inline bool __hge(__half a, __half b) { return a >= b; }
inline bool __hisnan(__half a) { return std::isnan(float(a)); }
inline bool __hisinf(__half a) { return std::isinf(float(a)); }
inline __half hsqrt(__half a) { return __half(sqrtf(float(a))); }
inline __half hrsqrt(__half a) { return __half(1.0f / sqrtf(float(a))); }
inline __half hexp(__half a) { return __half(expf(float(a))); }
inline __half hlog(__half a) { return __half(logf(float(a))); }
// The rest of the half math, through float (one rounding to half at the end), and the __half2
// forms, lane by lane.
#define CASS_HALF_MATH(name, name2, expr)                                   \
  inline __half name(__half h) {                                           \
    float x = float(h);                                                    \
    return __half(expr);                                                   \
  }                                                                        \
  inline __half2 name2(__half2 h) { return __half2{name(h.x), name(h.y)}; }
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
inline __half2 h2sqrt(__half2 h) { return __half2{hsqrt(h.x), hsqrt(h.y)}; }
inline __half2 h2rsqrt(__half2 h) { return __half2{hrsqrt(h.x), hrsqrt(h.y)}; }
inline __half2 h2exp(__half2 h) { return __half2{hexp(h.x), hexp(h.y)}; }
inline __half2 h2log(__half2 h) { return __half2{hlog(h.x), hlog(h.y)}; }
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
inline float __low2float(__half2 h) { return float(h.x); }
inline float __high2float(__half2 h) { return float(h.y); }
inline __half2 __lowhigh2highlow(__half2 h) { return __half2{h.y, h.x}; }
inline __half2 __lows2half2(__half2 a, __half2 b) { return __half2{a.x, b.x}; }
inline __half2 __highs2half2(__half2 a, __half2 b) { return __half2{a.y, b.y}; }
inline __half2 __hadd2(__half2 a, __half2 b) { return __half2{a.x + b.x, a.y + b.y}; }
inline __half2 __hsub2(__half2 a, __half2 b) { return __half2{a.x - b.x, a.y - b.y}; }
inline __half2 __hmul2(__half2 a, __half2 b) { return __half2{a.x * b.x, a.y * b.y}; }
inline __half2 __h2div(__half2 a, __half2 b) { return __half2{a.x / b.x, a.y / b.y}; }
inline __half2 __hfma2(__half2 a, __half2 b, __half2 c) { return __half2{__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y)}; }
inline __half2 __hneg2(__half2 a) { return __half2{-a.x, -a.y}; }
inline __half2 operator+(const __half2& a, const __half2& b) { return __hadd2(a, b); }
inline __half2 operator-(const __half2& a, const __half2& b) { return __hsub2(a, b); }
inline __half2 operator*(const __half2& a, const __half2& b) { return __hmul2(a, b); }
