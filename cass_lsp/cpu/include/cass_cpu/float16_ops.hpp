// What __half (half.hpp) and __nv_bfloat16 (bf16.hpp) do alike: arithmetic, comparisons and the math
// functions through float (rounded once back to the type), conversions to integers through float's
// (each is a float exactly), and their pairs lane by lane. Macros of the type's names rather than
// templates, so each type keeps plain overloads that convert their arguments as CUDA's do.
#pragma once
#include <cmath>

#include "math.hpp"

#define CASS_FLOAT16_OPERATORS(T)                                                          \
  inline T operator+(const T& a, const T& b) { return T(float(a) + float(b)); }           \
  inline T operator-(const T& a, const T& b) { return T(float(a) - float(b)); }           \
  inline T operator*(const T& a, const T& b) { return T(float(a) * float(b)); }           \
  inline T operator/(const T& a, const T& b) { return T(float(a) / float(b)); }           \
  inline bool operator==(const T& a, const T& b) { return float(a) == float(b); }         \
  inline bool operator!=(const T& a, const T& b) { return float(a) != float(b); }         \
  inline bool operator<(const T& a, const T& b) { return float(a) < float(b); }           \
  inline bool operator<=(const T& a, const T& b) { return float(a) <= float(b); }         \
  inline bool operator>(const T& a, const T& b) { return float(a) > float(b); }           \
  inline bool operator>=(const T& a, const T& b) { return float(a) >= float(b); }

// (after the type's unary minus)
#define CASS_FLOAT16_FUNCTIONS(T)                                         \
  inline T __hadd(T a, T b) { return a + b; }                             \
  inline T __hsub(T a, T b) { return a - b; }                             \
  inline T __hmul(T a, T b) { return a * b; }                             \
  inline T __hdiv(T a, T b) { return a / b; }                             \
  inline T __hneg(T a) { return -a; }                                     \
  inline T __hmax(T a, T b) { return float(a) > float(b) ? a : b; }       \
  inline T __hmin(T a, T b) { return float(a) < float(b) ? a : b; }       \
  inline bool __heq(T a, T b) { return a == b; }                          \
  inline bool __hne(T a, T b) { return a != b; }                          \
  inline bool __hlt(T a, T b) { return a < b; }                           \
  inline bool __hle(T a, T b) { return a <= b; }                          \
  inline bool __hgt(T a, T b) { return a > b; }                           \
  inline bool __hge(T a, T b) { return a >= b; }                          \
  inline bool __hisnan(T a) { return std::isnan(float(a)); }

// __<name>2int_<mode> ... __<name>2ull_<mode>, name being half or bfloat16; M is the mode's number.
#define CASS_FLOAT16_TO_INTEGERS(T, name, mode, M)                                                             \
  inline int __##name##2int_##mode(T h) { return ::cass::detail::to_integer<int, M>(float(h)); }               \
  inline unsigned int __##name##2uint_##mode(T h) { return ::cass::detail::to_integer<unsigned int, M>(float(h)); } \
  inline short __##name##2short_##mode(T h) { return ::cass::detail::to_integer<short, M>(float(h)); }         \
  inline unsigned short __##name##2ushort_##mode(T h) {                                                        \
    return ::cass::detail::to_integer<unsigned short, M>(float(h));                                            \
  }                                                                                                            \
  inline long long __##name##2ll_##mode(T h) { return ::cass::detail::to_integer<long long, M>(float(h)); }    \
  inline unsigned long long __##name##2ull_##mode(T h) {                                                       \
    return ::cass::detail::to_integer<unsigned long long, M>(float(h));                                        \
  }

// name(h) as expr of float x, and its pair form name2.
#define CASS_FLOAT16_MATH(T, T2, name, name2, expr) \
  inline T name(T h) {                              \
    float x = float(h);                             \
    return T(expr);                                 \
  }                                                 \
  inline T2 name2(T2 h) { return T2{name(h.x), name(h.y)}; }

// (after the type's __hfma)
#define CASS_FLOAT16_PAIRS(T2)                                                                      \
  inline float __low2float(T2 h) { return float(h.x); }                                             \
  inline float __high2float(T2 h) { return float(h.y); }                                            \
  inline T2 __lowhigh2highlow(T2 h) { return T2{h.y, h.x}; }                                        \
  inline T2 __hadd2(T2 a, T2 b) { return T2{a.x + b.x, a.y + b.y}; }                                \
  inline T2 __hsub2(T2 a, T2 b) { return T2{a.x - b.x, a.y - b.y}; }                                \
  inline T2 __hmul2(T2 a, T2 b) { return T2{a.x * b.x, a.y * b.y}; }                                \
  inline T2 __h2div(T2 a, T2 b) { return T2{a.x / b.x, a.y / b.y}; }                                \
  inline T2 __hfma2(T2 a, T2 b, T2 c) { return T2{__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y)}; } \
  inline T2 __hneg2(T2 a) { return T2{-a.x, -a.y}; }                                                \
  inline T2 operator+(const T2& a, const T2& b) { return __hadd2(a, b); }                           \
  inline T2 operator-(const T2& a, const T2& b) { return __hsub2(a, b); }                           \
  inline T2 operator*(const T2& a, const T2& b) { return __hmul2(a, b); }
