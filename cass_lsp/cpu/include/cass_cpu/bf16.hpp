// __nv_bfloat16 / __nv_bfloat162 (and HIP's __hip_bfloat16, the same type): storage, conversions
// rounded once as the hardware's cvt does (to nearest even by default), arithmetic through float.
// float has more than twice bfloat16's 8 significant bits plus two, so +, -, *, / and sqrt in
// float and then rounded to bfloat16 are correctly rounded; fma goes through long double.
#pragma once
#include <cmath>
#include <cstring>

#include "float16_ops.hpp"
#include "math.hpp"
#include "types.hpp"

namespace cass {
namespace detail {
inline float bf16_bits_to_float(unsigned short b) {
  unsigned int x = static_cast<unsigned int>(b) << 16;
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}
// v rounded to bfloat16 in mode M (exactly once: v is exact in long double for every caller).
// NaN becomes the canonical 0x7fff, as CUDA's conversions give it.
template <int M>
inline unsigned short bf16_bits(long double v) {
  if (v != v) return 0x7fffu;
  bool negative = std::signbit(v);
  long double a = std::fabs(v);
  unsigned short sign = negative ? 0x8000u : 0u;
  if (std::isinf(a)) return static_cast<unsigned short>(sign | 0x7f80u);
  if (a == 0) return sign;
  int e = std::ilogb(a);
  int quantum = (e < -126 ? -126 : e) - 7;  // 8 significant bits; subnormals share the smallest quantum
  long double q = std::ldexp(a, -quantum), r;
  bool up = negative ? M == kRd : M == kRu;  // away from zero
  if (M == kRn) r = std::nearbyint(q);
  else if (M == kRz || !up) r = std::trunc(q);
  else r = std::ceil(q);
  long double rounded = std::ldexp(r, quantum);
  // past the largest finite value: infinity, unless the mode rounds toward zero here
  if (rounded > 0x1.fep127L) {
    if (M == kRn || up) return static_cast<unsigned short>(sign | 0x7f80u);
    rounded = 0x1.fep127L;
  }
  float f = static_cast<float>(rounded);  // exact: 8 significant bits
  unsigned int x;
  std::memcpy(&x, &f, 4);
  return static_cast<unsigned short>(sign | ((x >> 16) & 0x7fffu));
}
inline unsigned short float_to_bf16_bits(float f) { return bf16_bits<kRn>(f); }
}  // namespace detail
}  // namespace cass

struct __nv_bfloat16_raw {
  unsigned short x;
};
struct __nv_bfloat162_raw {
  unsigned short x, y;
};
struct __nv_bfloat16 {
  unsigned short __x;
  __nv_bfloat16() = default;  // trivial, so __shared__ arrays need no per-thread construction
  __nv_bfloat16(const __nv_bfloat16_raw& r) : __x(r.x) {}
  __nv_bfloat16(float f) : __x(::cass::detail::float_to_bf16_bits(f)) {}
  __nv_bfloat16(double d) : __x(::cass::detail::bf16_bits<::cass::detail::kRn>(d)) {}
  __nv_bfloat16(int i) : __x(::cass::detail::bf16_bits<::cass::detail::kRn>(i)) {}
  __nv_bfloat16(unsigned int i) : __x(::cass::detail::bf16_bits<::cass::detail::kRn>(i)) {}
  __nv_bfloat16(short i) : __x(::cass::detail::bf16_bits<::cass::detail::kRn>(i)) {}
  __nv_bfloat16(unsigned short i) : __x(::cass::detail::bf16_bits<::cass::detail::kRn>(i)) {}
  __nv_bfloat16(long long i) : __x(::cass::detail::bf16_bits<::cass::detail::kRn>(i)) {}
  __nv_bfloat16(unsigned long long i) : __x(::cass::detail::bf16_bits<::cass::detail::kRn>(i)) {}
  operator float() const { return ::cass::detail::bf16_bits_to_float(__x); }
  operator __nv_bfloat16_raw() const { return __nv_bfloat16_raw{__x}; }
  __nv_bfloat16& operator+=(const __nv_bfloat16& o) { return *this = __nv_bfloat16(float(*this) + float(o)); }
  __nv_bfloat16& operator-=(const __nv_bfloat16& o) { return *this = __nv_bfloat16(float(*this) - float(o)); }
  __nv_bfloat16& operator*=(const __nv_bfloat16& o) { return *this = __nv_bfloat16(float(*this) * float(o)); }
  __nv_bfloat16& operator/=(const __nv_bfloat16& o) { return *this = __nv_bfloat16(float(*this) / float(o)); }
};
typedef __nv_bfloat16 nv_bfloat16;
struct __attribute__((aligned(4))) __nv_bfloat162 {
  __nv_bfloat16 x, y;
};
typedef __nv_bfloat162 nv_bfloat162;

CASS_FLOAT16_OPERATORS(__nv_bfloat16)
inline __nv_bfloat16 operator-(const __nv_bfloat16& a) {
  __nv_bfloat16 r;
  r.__x = static_cast<unsigned short>(a.__x ^ 0x8000u);
  return r;
}

inline __nv_bfloat16 __ushort_as_bfloat16(unsigned short u) {
  __nv_bfloat16 h;
  h.__x = u;
  return h;
}
inline unsigned short __bfloat16_as_ushort(__nv_bfloat16 h) { return h.__x; }
inline short __bfloat16_as_short(__nv_bfloat16 h) { return static_cast<short>(h.__x); }
inline __nv_bfloat16 __short_as_bfloat16(short s) { return __ushort_as_bfloat16(static_cast<unsigned short>(s)); }
inline float __bfloat162float(__nv_bfloat16 h) { return float(h); }
inline __nv_bfloat16 __float2bfloat16(float f) { return __nv_bfloat16(f); }
inline __nv_bfloat16 __double2bfloat16(double d) { return __nv_bfloat16(d); }
// Every bfloat16 is a float exactly, so conversions to integers go through float's.
#define CASS_BF16_CONVERSIONS(mode, M)                                                                          \
  inline __nv_bfloat16 __float2bfloat16_##mode(float f) { return __ushort_as_bfloat16(::cass::detail::bf16_bits<M>(f)); } \
  inline __nv_bfloat16 __int2bfloat16_##mode(int i) { return __ushort_as_bfloat16(::cass::detail::bf16_bits<M>(i)); } \
  inline __nv_bfloat16 __uint2bfloat16_##mode(unsigned int i) {                                                 \
    return __ushort_as_bfloat16(::cass::detail::bf16_bits<M>(i));                                               \
  }                                                                                                             \
  inline __nv_bfloat16 __short2bfloat16_##mode(short i) { return __ushort_as_bfloat16(::cass::detail::bf16_bits<M>(i)); } \
  inline __nv_bfloat16 __ushort2bfloat16_##mode(unsigned short i) {                                             \
    return __ushort_as_bfloat16(::cass::detail::bf16_bits<M>(i));                                               \
  }                                                                                                             \
  inline __nv_bfloat16 __ll2bfloat16_##mode(long long i) { return __ushort_as_bfloat16(::cass::detail::bf16_bits<M>(i)); } \
  inline __nv_bfloat16 __ull2bfloat16_##mode(unsigned long long i) {                                            \
    return __ushort_as_bfloat16(::cass::detail::bf16_bits<M>(i));                                               \
  }                                                                                                             \
  CASS_FLOAT16_TO_INTEGERS(__nv_bfloat16, bfloat16, mode, M)
CASS_BF16_CONVERSIONS(rn, ::cass::detail::kRn)
CASS_BF16_CONVERSIONS(rz, ::cass::detail::kRz)
CASS_BF16_CONVERSIONS(ru, ::cass::detail::kRu)
CASS_BF16_CONVERSIONS(rd, ::cass::detail::kRd)
#undef CASS_BF16_CONVERSIONS

CASS_FLOAT16_FUNCTIONS(__nv_bfloat16)
inline __nv_bfloat16 __habs(__nv_bfloat16 a) { return __ushort_as_bfloat16(static_cast<unsigned short>(a.__x & 0x7fffu)); }
inline __nv_bfloat16 __hfma(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c) {
  // a * b is exact in long double, and the sum is rounded there only past 64 bits
  return __ushort_as_bfloat16(::cass::detail::bf16_bits<::cass::detail::kRn>(
      static_cast<long double>(float(a)) * static_cast<long double>(float(b)) + static_cast<long double>(float(c))));
}
inline __nv_bfloat16 __hfma_relu(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c) {
  __nv_bfloat16 r = __hfma(a, b, c);
  return float(r) < 0.0f ? __nv_bfloat16(0.0f) : r;
}
// the unordered comparisons: true where either side is NaN
inline bool __hequ(__nv_bfloat16 a, __nv_bfloat16 b) { return !(a < b || a > b); }
inline bool __hneu(__nv_bfloat16 a, __nv_bfloat16 b) { return !(a == b); }
inline bool __hltu(__nv_bfloat16 a, __nv_bfloat16 b) { return !(a >= b); }
inline bool __hleu(__nv_bfloat16 a, __nv_bfloat16 b) { return !(a > b); }
inline bool __hgtu(__nv_bfloat16 a, __nv_bfloat16 b) { return !(a <= b); }
inline bool __hgeu(__nv_bfloat16 a, __nv_bfloat16 b) { return !(a < b); }
inline __nv_bfloat16 __hadd_rn(__nv_bfloat16 a, __nv_bfloat16 b) { return a + b; }
inline __nv_bfloat16 __hsub_rn(__nv_bfloat16 a, __nv_bfloat16 b) { return a - b; }
inline __nv_bfloat16 __hmul_rn(__nv_bfloat16 a, __nv_bfloat16 b) { return a * b; }
inline __nv_bfloat16 __hmax_nan(__nv_bfloat16 a, __nv_bfloat16 b) {
  return __hisnan(a) || __hisnan(b) ? __ushort_as_bfloat16(0x7fffu) : (float(a) > float(b) ? a : b);
}
inline __nv_bfloat16 __hmin_nan(__nv_bfloat16 a, __nv_bfloat16 b) {
  return __hisnan(a) || __hisnan(b) ? __ushort_as_bfloat16(0x7fffu) : (float(a) < float(b) ? a : b);
}
inline int __hisinf(__nv_bfloat16 a) { return std::isinf(float(a)) ? (float(a) < 0 ? -1 : 1) : 0; }
#define CASS_BF16_MATH(name, name2, expr) CASS_FLOAT16_MATH(__nv_bfloat16, __nv_bfloat162, name, name2, expr)
CASS_BF16_MATH(hsqrt, h2sqrt, sqrtf(x))
CASS_BF16_MATH(hrsqrt, h2rsqrt, 1.0f / sqrtf(x))
CASS_BF16_MATH(hrcp, h2rcp, 1.0f / x)
CASS_BF16_MATH(hexp, h2exp, expf(x))
CASS_BF16_MATH(hexp2, h2exp2, exp2f(x))
CASS_BF16_MATH(hlog, h2log, logf(x))
CASS_BF16_MATH(hlog2, h2log2, log2f(x))
CASS_BF16_MATH(hexp10, h2exp10, exp10f(x))
CASS_BF16_MATH(hlog10, h2log10, log10f(x))
CASS_BF16_MATH(hsin, h2sin, sinf(x))
CASS_BF16_MATH(hcos, h2cos, cosf(x))
CASS_BF16_MATH(hceil, h2ceil, ceilf(x))
CASS_BF16_MATH(hfloor, h2floor, floorf(x))
CASS_BF16_MATH(hrint, h2rint, rintf(x))
CASS_BF16_MATH(htrunc, h2trunc, truncf(x))
#undef CASS_BF16_MATH

inline __nv_bfloat162 __halves2bfloat162(__nv_bfloat16 a, __nv_bfloat16 b) { return __nv_bfloat162{a, b}; }
inline __nv_bfloat162 __bfloat162bfloat162(__nv_bfloat16 a) { return __nv_bfloat162{a, a}; }
inline __nv_bfloat162 __floats2bfloat162_rn(float a, float b) { return __nv_bfloat162{__nv_bfloat16(a), __nv_bfloat16(b)}; }
inline __nv_bfloat162 __float2bfloat162_rn(float a) { return __nv_bfloat162{__nv_bfloat16(a), __nv_bfloat16(a)}; }
inline __nv_bfloat162 __float22bfloat162_rn(float2 f) { return __floats2bfloat162_rn(f.x, f.y); }
inline float2 __bfloat1622float2(__nv_bfloat162 h) { return float2{float(h.x), float(h.y)}; }
inline __nv_bfloat16 __low2bfloat16(__nv_bfloat162 h) { return h.x; }
inline __nv_bfloat16 __high2bfloat16(__nv_bfloat162 h) { return h.y; }
inline __nv_bfloat162 __low2bfloat162(__nv_bfloat162 h) { return __nv_bfloat162{h.x, h.x}; }
inline __nv_bfloat162 __high2bfloat162(__nv_bfloat162 h) { return __nv_bfloat162{h.y, h.y}; }
inline __nv_bfloat162 __lows2bfloat162(__nv_bfloat162 a, __nv_bfloat162 b) { return __nv_bfloat162{a.x, b.x}; }
inline __nv_bfloat162 __highs2bfloat162(__nv_bfloat162 a, __nv_bfloat162 b) { return __nv_bfloat162{a.y, b.y}; }
CASS_FLOAT16_PAIRS(__nv_bfloat162)
inline __nv_bfloat162 __habs2(__nv_bfloat162 a) { return __nv_bfloat162{__habs(a.x), __habs(a.y)}; }
inline __nv_bfloat162 __hmax2(__nv_bfloat162 a, __nv_bfloat162 b) { return __nv_bfloat162{__hmax(a.x, b.x), __hmax(a.y, b.y)}; }
inline __nv_bfloat162 __hmin2(__nv_bfloat162 a, __nv_bfloat162 b) { return __nv_bfloat162{__hmin(a.x, b.x), __hmin(a.y, b.y)}; }
inline __nv_bfloat162 operator/(const __nv_bfloat162& a, const __nv_bfloat162& b) { return __h2div(a, b); }
// Lane-wise comparisons: 1.0 or 0.0 per lane (__heq2 ...), or true when both lanes hold (__hbeq2 ...).
#define CASS_BF16_COMPARE2(name, test)                                                               \
  inline __nv_bfloat162 __h##name##2(__nv_bfloat162 a, __nv_bfloat162 b) {                          \
    return __nv_bfloat162{__nv_bfloat16(test(a.x, b.x) ? 1.0f : 0.0f), __nv_bfloat16(test(a.y, b.y) ? 1.0f : 0.0f)}; \
  }                                                                                                 \
  inline bool __hb##name##2(__nv_bfloat162 a, __nv_bfloat162 b) { return test(a.x, b.x) && test(a.y, b.y); }
CASS_BF16_COMPARE2(eq, __heq)
CASS_BF16_COMPARE2(ne, __hne)
CASS_BF16_COMPARE2(lt, __hlt)
CASS_BF16_COMPARE2(le, __hle)
CASS_BF16_COMPARE2(gt, __hgt)
CASS_BF16_COMPARE2(ge, __hge)
CASS_BF16_COMPARE2(equ, __hequ)
CASS_BF16_COMPARE2(neu, __hneu)
CASS_BF16_COMPARE2(ltu, __hltu)
CASS_BF16_COMPARE2(leu, __hleu)
CASS_BF16_COMPARE2(gtu, __hgtu)
CASS_BF16_COMPARE2(geu, __hgeu)
#undef CASS_BF16_COMPARE2
inline __nv_bfloat162 __hisnan2(__nv_bfloat162 a) {
  return __nv_bfloat162{__nv_bfloat16(__hisnan(a.x) ? 1.0f : 0.0f), __nv_bfloat16(__hisnan(a.y) ? 1.0f : 0.0f)};
}
