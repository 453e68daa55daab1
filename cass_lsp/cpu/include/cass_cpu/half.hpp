// __half / __half2 basics: storage, conversions (round to nearest even) and arithmetic through float.
#pragma once
#include <cmath>
#include <cstring>

#include "types.hpp"

namespace cass {
namespace detail {
inline unsigned short float_to_half_bits(float f) {
  unsigned int x;
  std::memcpy(&x, &f, 4);
  unsigned int sign = (x >> 16) & 0x8000u, mant = x & 0x7fffffu;
  int exp = static_cast<int>((x >> 23) & 0xff);
  if (exp == 255) return static_cast<unsigned short>(sign | 0x7c00u | (mant != 0 ? 0x200u : 0u));
  int e = exp - 112;  // rebias 127 -> 15
  if (e >= 31) return static_cast<unsigned short>(sign | 0x7c00u);
  if (e <= 0) {
    if (e < -10) return static_cast<unsigned short>(sign);
    mant |= 0x800000u;
    unsigned int shift = static_cast<unsigned int>(14 - e), h = mant >> shift, rem = mant & ((1u << shift) - 1);
    unsigned int half = 1u << (shift - 1);
    if (rem > half || (rem == half && (h & 1u) != 0)) ++h;
    return static_cast<unsigned short>(sign | h);
  }
  unsigned int h = (static_cast<unsigned int>(e) << 10) | (mant >> 13), rem = mant & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1u) != 0)) ++h;  // a carry into the exponent rounds up to inf
  return static_cast<unsigned short>(sign | h);
}
inline float half_bits_to_float(unsigned short h) {
  unsigned int sign = (h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu, x;
  if (exp == 0) {
    if (mant == 0) {
      x = sign;
    } else {
      int e = -14;
      while ((mant & 0x400u) == 0) {
        mant <<= 1;
        --e;
      }
      x = sign | (static_cast<unsigned int>(e + 127) << 23) | ((mant & 0x3ffu) << 13);
    }
  } else if (exp == 31) {
    x = sign | 0x7f800000u | (mant << 13);
  } else {
    x = sign | ((exp + 112) << 23) | (mant << 13);
  }
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}
}  // namespace detail
}  // namespace cass

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
inline __half __float2half_rn(float f) { return __half(f); }
inline float __half2float(__half h) { return float(h); }
inline __half __int2half_rn(int i) { return __half(static_cast<float>(i)); }
inline int __half2int_rn(__half h) { return static_cast<int>(nearbyintf(float(h))); }
inline int __half2int_rz(__half h) { return static_cast<int>(float(h)); }
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
