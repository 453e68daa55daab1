// Device math: the C library gives sinf/expf/...; this adds CUDA's intrinsics and extras.
// Fast-math intrinsics (__expf, __fdividef, ...) compute the accurate result: on a CPU the exact
// answer is as cheap, and verification compares against a tolerance anyway.
#pragma once
#include <cmath>
#include <math.h>
#include <cfenv>
#include <cstring>
#include <limits>
#include <type_traits>

#ifndef CUDART_VERSION
#define CUDART_VERSION 12040
#endif

// min/max are unqualified overloads in CUDA device code (and HIP): mixed argument types allowed.
template <class A, class B, class = std::enable_if_t<std::is_arithmetic<A>::value && std::is_arithmetic<B>::value>>
inline std::common_type_t<A, B> min(A a, B b) {
  return b < a ? static_cast<std::common_type_t<A, B>>(b) : static_cast<std::common_type_t<A, B>>(a);
}
template <class A, class B, class = std::enable_if_t<std::is_arithmetic<A>::value && std::is_arithmetic<B>::value>>
inline std::common_type_t<A, B> max(A a, B b) {
  return a < b ? static_cast<std::common_type_t<A, B>>(b) : static_cast<std::common_type_t<A, B>>(a);
}
// CUDA's integer min/max are device functions, so a host helper of the same name and signature is
// no clash under nvcc (cuda-samples' mergeSort_host.cpp: `static uint umin(uint a, uint b)`). Here
// they are templates with a defaulted parameter: such a function is then an overload that wins,
// never a redefinition, and a call with none in sight takes these.
template <class = void> inline unsigned int umin(unsigned int a, unsigned int b) { return a < b ? a : b; }
template <class = void> inline unsigned int umax(unsigned int a, unsigned int b) { return a > b ? a : b; }
template <class = void> inline long long llmin(long long a, long long b) { return a < b ? a : b; }
template <class = void> inline long long llmax(long long a, long long b) { return a > b ? a : b; }
template <class = void>
inline unsigned long long ullmin(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
template <class = void>
inline unsigned long long ullmax(unsigned long long a, unsigned long long b) { return a > b ? a : b; }

inline float __expf(float x) { return expf(x); }
inline float __exp10f(float x) { return exp10f(x); }
inline float __logf(float x) { return logf(x); }
inline float __log2f(float x) { return log2f(x); }
inline float __log10f(float x) { return log10f(x); }
inline float __sinf(float x) { return sinf(x); }
inline float __cosf(float x) { return cosf(x); }
inline float __tanf(float x) { return tanf(x); }
inline float __powf(float x, float y) { return powf(x, y); }
inline void __sincosf(float x, float* s, float* c) { sincosf(x, s, c); }
inline float __fdividef(float a, float b) { return a / b; }
inline float __frsqrt_rn(float x) { return 1.0f / sqrtf(x); }
inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
inline double rsqrt(double x) { return 1.0 / sqrt(x); }
inline float rcbrtf(float x) { return 1.0f / cbrtf(x); }
inline double rcbrt(double x) { return 1.0 / cbrt(x); }
inline float rhypotf(float x, float y) { return 1.0f / hypotf(x, y); }
inline float norm3df(float a, float b, float c) { return sqrtf(a * a + b * b + c * c); }
inline float rnorm3df(float a, float b, float c) { return 1.0f / sqrtf(a * a + b * b + c * c); }
inline float norm4df(float a, float b, float c, float d) { return sqrtf(a * a + b * b + c * c + d * d); }
inline float rnorm4df(float a, float b, float c, float d) { return 1.0f / sqrtf(a * a + b * b + c * c + d * d); }
inline double norm3d(double a, double b, double c) { return sqrt(a * a + b * b + c * c); }
inline float sinpif(float x) { return sinf(3.14159265358979323846f * x); }
inline float cospif(float x) { return cosf(3.14159265358979323846f * x); }
inline double sinpi(double x) { return sin(3.14159265358979323846 * x); }
inline double cospi(double x) { return cos(3.14159265358979323846 * x); }
inline void sincospif(float x, float* s, float* c) { sincosf(3.14159265358979323846f * x, s, c); }
inline float __saturatef(float x) { return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f; }
inline float normcdff(float x) { return 0.5f * erfcf(-x * 0.70710678118654752f); }
inline double normcdf(double x) { return 0.5 * erfc(-x * 0.70710678118654752); }

// ---- arithmetic with a rounding mode ---------------------------------------------------------------
namespace cass {
namespace detail {
// The four IEEE modes of the _rn/_rz/_ru/_rd suffixes, by their <cfenv> values.
constexpr int kRn = FE_TONEAREST, kRz = FE_TOWARDZERO, kRu = FE_UPWARD, kRd = FE_DOWNWARD;
// Runs op under rounding mode M. The empty asm statements keep GCC (which assumes the default mode
// without -frounding-math) from moving the operation out of the window or folding it.
template <int M, class T, class Op>
inline T rounded(Op op) {
  if (M == kRn) return op();
  const int saved = std::fegetround();
  std::fesetround(M);
  T r = op();
  __asm__ volatile("" : "+m"(r));
  std::fesetround(saved);
  return r;
}
template <class T>
inline T opaque(T v) {
  __asm__ volatile("" : "+m"(v));
  return v;
}
}  // namespace detail
}  // namespace cass
// One mode's arithmetic for one type: __fadd_rz / __dadd_rz and the rest (fma: __fmaf_rz / __fma_rz).
#define CASS_ROUNDED_OPS(mode, M, T, p, f3)                                                                    \
  inline T p##add_##mode(T a, T b) { return ::cass::detail::rounded<M, T>([&] { return ::cass::detail::opaque(a) + b; }); } \
  inline T p##sub_##mode(T a, T b) { return ::cass::detail::rounded<M, T>([&] { return ::cass::detail::opaque(a) - b; }); } \
  inline T p##mul_##mode(T a, T b) { return ::cass::detail::rounded<M, T>([&] { return ::cass::detail::opaque(a) * b; }); } \
  inline T p##div_##mode(T a, T b) { return ::cass::detail::rounded<M, T>([&] { return ::cass::detail::opaque(a) / b; }); } \
  inline T p##rcp_##mode(T a) { return ::cass::detail::rounded<M, T>([&] { return T(1) / ::cass::detail::opaque(a); }); } \
  inline T p##sqrt_##mode(T a) { return ::cass::detail::rounded<M, T>([&] { return std::sqrt(::cass::detail::opaque(a)); }); } \
  inline T f3##mode(T a, T b, T c) {                                                                            \
    return ::cass::detail::rounded<M, T>([&] { return std::fma(::cass::detail::opaque(a), b, c); });            \
  }
#define CASS_ROUNDED(mode, M) CASS_ROUNDED_OPS(mode, M, float, __f, __fmaf_) CASS_ROUNDED_OPS(mode, M, double, __d, __fma_)
CASS_ROUNDED(rn, ::cass::detail::kRn)
CASS_ROUNDED(rz, ::cass::detail::kRz)
CASS_ROUNDED(ru, ::cass::detail::kRu)
CASS_ROUNDED(rd, ::cass::detail::kRd)
#undef CASS_ROUNDED
#undef CASS_ROUNDED_OPS

// ---- bit reinterpretation and conversion --------------------------------------------------------
namespace cass {
namespace detail {
template <class To, class From>
inline To bit_cast(From v) {
  static_assert(sizeof(To) == sizeof(From), "same size");
  To r;
  std::memcpy(&r, &v, sizeof(To));
  return r;
}
}  // namespace detail
}  // namespace cass
inline int __float_as_int(float x) { return ::cass::detail::bit_cast<int>(x); }
inline unsigned int __float_as_uint(float x) { return ::cass::detail::bit_cast<unsigned int>(x); }
inline float __int_as_float(int x) { return ::cass::detail::bit_cast<float>(x); }
inline float __uint_as_float(unsigned int x) { return ::cass::detail::bit_cast<float>(x); }
inline long long __double_as_longlong(double x) { return ::cass::detail::bit_cast<long long>(x); }
inline double __longlong_as_double(long long x) { return ::cass::detail::bit_cast<double>(x); }
inline int __double2hiint(double x) { return static_cast<int>(__double_as_longlong(x) >> 32); }
inline int __double2loint(double x) { return static_cast<int>(__double_as_longlong(x)); }
inline double __hiloint2double(int hi, int lo) {
  return __longlong_as_double(static_cast<long long>((static_cast<unsigned long long>(static_cast<unsigned>(hi)) << 32) |
                                                     static_cast<unsigned>(lo)));
}
namespace cass {
namespace detail {
// Floating point to integer as the GPU's cvt does: rounded by the mode, clamped to the integer's
// range (no undefined behaviour for large values), NaN to 0 (64-bit: the most negative value).
template <class I, int M, class F>
inline I to_integer(F x) {
  if (x != x) return sizeof(I) == 8 ? static_cast<I>(1ull << 63) : I(0);
  F r = M == kRn ? std::nearbyint(x) : M == kRz ? std::trunc(x) : M == kRu ? std::ceil(x) : std::floor(x);
  const F lo = std::is_signed<I>::value ? -std::ldexp(F(1), int(8 * sizeof(I)) - 1) : F(0);
  const F hi = std::ldexp(F(1), int(8 * sizeof(I)) - (std::is_signed<I>::value ? 1 : 0));  // first value out of range
  if (r < lo) return std::numeric_limits<I>::min();
  if (r >= hi) return std::numeric_limits<I>::max();
  return static_cast<I>(r);
}
// Integer or double to a narrower floating type under mode M: convert to nearest, then step one
// ulp where that went the wrong way (long double holds every 64-bit integer and double exactly).
template <class To, int M, class From>
inline To to_floating(From v) {
  To t = static_cast<To>(v);
  if (M == kRn || t != t) return t;
  const long double exact = static_cast<long double>(v), got = static_cast<long double>(t);
  if (M == kRu && got < exact) return std::nextafter(t, std::numeric_limits<To>::infinity());
  if (M == kRd && got > exact) return std::nextafter(t, -std::numeric_limits<To>::infinity());
  if (M == kRz && std::fabs(got) > std::fabs(exact)) return std::nextafter(t, To(0));
  return t;
}
}  // namespace detail
}  // namespace cass
#define CASS_CONVERSIONS(mode, M)                                                                                  \
  inline int __float2int_##mode(float x) { return ::cass::detail::to_integer<int, M>(x); }                        \
  inline unsigned int __float2uint_##mode(float x) { return ::cass::detail::to_integer<unsigned int, M>(x); }     \
  inline long long __float2ll_##mode(float x) { return ::cass::detail::to_integer<long long, M>(x); }             \
  inline unsigned long long __float2ull_##mode(float x) { return ::cass::detail::to_integer<unsigned long long, M>(x); } \
  inline int __double2int_##mode(double x) { return ::cass::detail::to_integer<int, M>(x); }                      \
  inline unsigned int __double2uint_##mode(double x) { return ::cass::detail::to_integer<unsigned int, M>(x); }   \
  inline long long __double2ll_##mode(double x) { return ::cass::detail::to_integer<long long, M>(x); }           \
  inline unsigned long long __double2ull_##mode(double x) { return ::cass::detail::to_integer<unsigned long long, M>(x); } \
  inline float __int2float_##mode(int x) { return ::cass::detail::to_floating<float, M>(x); }                     \
  inline float __uint2float_##mode(unsigned int x) { return ::cass::detail::to_floating<float, M>(x); }           \
  inline float __ll2float_##mode(long long x) { return ::cass::detail::to_floating<float, M>(x); }                \
  inline float __ull2float_##mode(unsigned long long x) { return ::cass::detail::to_floating<float, M>(x); }       \
  inline double __ll2double_##mode(long long x) { return ::cass::detail::to_floating<double, M>(x); }             \
  inline double __ull2double_##mode(unsigned long long x) { return ::cass::detail::to_floating<double, M>(x); }   \
  inline float __double2float_##mode(double x) { return ::cass::detail::to_floating<float, M>(x); }
CASS_CONVERSIONS(rn, ::cass::detail::kRn)
CASS_CONVERSIONS(rz, ::cass::detail::kRz)
CASS_CONVERSIONS(ru, ::cass::detail::kRu)
CASS_CONVERSIONS(rd, ::cass::detail::kRd)
#undef CASS_CONVERSIONS
// Exact in every mode, so CUDA has only the _rn spelling.
inline double __int2double_rn(int x) { return static_cast<double>(x); }
inline double __uint2double_rn(unsigned int x) { return static_cast<double>(x); }

// ---- integer intrinsics -------------------------------------------------------------------------
inline int __popc(unsigned int x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz(static_cast<unsigned>(x)); }
inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll(static_cast<unsigned long long>(x)); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline unsigned int __brev(unsigned int x) {
  x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
  x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
  x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
  return __builtin_bswap32(x);
}
inline unsigned long long __brevll(unsigned long long x) {
  return (static_cast<unsigned long long>(__brev(static_cast<unsigned>(x))) << 32) | __brev(static_cast<unsigned>(x >> 32));
}
inline unsigned int __byte_perm(unsigned int x, unsigned int y, unsigned int s) {
  unsigned long long v = (static_cast<unsigned long long>(y) << 32) | x;
  unsigned int r = 0;
  for (int i = 0; i < 4; ++i) r |= static_cast<unsigned int>((v >> (((s >> (4 * i)) & 7) * 8)) & 0xff) << (8 * i);
  return r;
}
inline unsigned int __funnelshift_l(unsigned int lo, unsigned int hi, unsigned int shift) {
  unsigned long long v = (static_cast<unsigned long long>(hi) << 32) | lo;
  return static_cast<unsigned int>((v << (shift & 31)) >> 32);
}
inline unsigned int __funnelshift_lc(unsigned int lo, unsigned int hi, unsigned int shift) {
  unsigned long long v = (static_cast<unsigned long long>(hi) << 32) | lo;
  return static_cast<unsigned int>((v << (shift > 32 ? 32 : shift)) >> 32);
}
inline unsigned int __funnelshift_r(unsigned int lo, unsigned int hi, unsigned int shift) {
  unsigned long long v = (static_cast<unsigned long long>(hi) << 32) | lo;
  return static_cast<unsigned int>(v >> (shift & 31));
}
inline unsigned int __funnelshift_rc(unsigned int lo, unsigned int hi, unsigned int shift) {
  unsigned long long v = (static_cast<unsigned long long>(hi) << 32) | lo;
  return static_cast<unsigned int>(v >> (shift > 32 ? 32 : shift));
}
// Dot products of packed 8- and 16-bit lanes, accumulated into c (int8 inference kernels).
inline int __dp4a(int a, int b, int c) {
  for (int i = 0; i < 4; ++i) c += static_cast<signed char>(a >> (8 * i)) * static_cast<signed char>(b >> (8 * i));
  return c;
}
inline unsigned int __dp4a(unsigned int a, unsigned int b, unsigned int c) {
  for (int i = 0; i < 4; ++i) c += ((a >> (8 * i)) & 0xffu) * ((b >> (8 * i)) & 0xffu);
  return c;
}
inline int __mul24(int a, int b) { return ((a << 8) >> 8) * ((b << 8) >> 8); }
inline unsigned int __umul24(unsigned int a, unsigned int b) { return (a & 0xffffffu) * (b & 0xffffffu); }
inline int __mulhi(int a, int b) { return static_cast<int>((static_cast<long long>(a) * b) >> 32); }
inline unsigned int __umulhi(unsigned int a, unsigned int b) {
  return static_cast<unsigned int>((static_cast<unsigned long long>(a) * b) >> 32);
}
inline long long __mul64hi(long long a, long long b) { return static_cast<long long>((static_cast<__int128>(a) * b) >> 64); }
inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b) {
  return static_cast<unsigned long long>((static_cast<unsigned __int128>(a) * b) >> 64);
}
inline unsigned int __sad(int x, int y, unsigned int z) { return (x > y ? static_cast<unsigned>(x - y) : static_cast<unsigned>(y - x)) + z; }
inline unsigned int __usad(unsigned int x, unsigned int y, unsigned int z) { return (x > y ? x - y : y - x) + z; }
inline int __hadd(int a, int b) { return static_cast<int>((static_cast<long long>(a) + b) >> 1); }
inline int __rhadd(int a, int b) { return static_cast<int>((static_cast<long long>(a) + b + 1) >> 1); }
inline unsigned int __uhadd(unsigned int a, unsigned int b) { return static_cast<unsigned>((static_cast<unsigned long long>(a) + b) >> 1); }
inline unsigned int __urhadd(unsigned int a, unsigned int b) {
  return static_cast<unsigned>((static_cast<unsigned long long>(a) + b + 1) >> 1);
}

// ---- SIMD video intrinsics: two 16-bit or four 8-bit lanes of a 32-bit word ----------------------
namespace cass {
namespace detail {
// Applies op lane by lane to a and b, each lane read as a signed or unsigned Bits-bit integer (as
// int), and packs op's results, truncated to the lane.
template <int Bits, bool Signed, class Op>
inline unsigned int simd(unsigned int a, unsigned int b, Op op) {
  constexpr unsigned int mask = (1u << Bits) - 1;
  unsigned int r = 0;
  for (int shift = 0; shift < 32; shift += Bits) {
    int x = static_cast<int>((a >> shift) & mask), y = static_cast<int>((b >> shift) & mask);
    if (Signed) {
      x = x >= (1 << (Bits - 1)) ? x - (1 << Bits) : x;
      y = y >= (1 << (Bits - 1)) ? y - (1 << Bits) : y;
    }
    r |= (static_cast<unsigned int>(op(x, y)) & mask) << shift;
  }
  return r;
}
// Clamps v to the range of a signed or unsigned Bits-bit lane.
template <int Bits, bool Signed>
inline int saturate_lane(int v) {
  const int lo = Signed ? -(1 << (Bits - 1)) : 0, hi = Signed ? (1 << (Bits - 1)) - 1 : (1 << Bits) - 1;
  return v < lo ? lo : v > hi ? hi : v;
}
// Sum over the lanes of |a - b| (each difference fits its lane as an unsigned value).
template <int Bits, bool Signed>
inline unsigned int sum_abs_diff(unsigned int a, unsigned int b) {
  unsigned int d = simd<Bits, Signed>(a, b, [](int x, int y) { return x > y ? x - y : y - x; }), sum = 0;
  for (int shift = 0; shift < 32; shift += Bits) sum += (d >> shift) & ((1u << Bits) - 1);
  return sum;
}
}  // namespace detail
}  // namespace cass
// One intrinsic for both widths: name2 (halfwords) and name4 (bytes); expr sees the lanes x and y
// and the lane width `bits`.
#define CASS_SIMD(name, Signed, expr)                                                                   \
  template <int bits>                                                                                   \
  inline unsigned int name##_lanes(unsigned int a, unsigned int b) {                                    \
    return ::cass::detail::simd<bits, Signed>(a, b, [](int x, int y) { return static_cast<int>(expr); }); \
  }                                                                                                     \
  inline unsigned int name##2(unsigned int a, unsigned int b) { return name##_lanes<16>(a, b); }        \
  inline unsigned int name##4(unsigned int a, unsigned int b) { return name##_lanes<8>(a, b); }
CASS_SIMD(__vadd, false, x + y)
CASS_SIMD(__vsub, false, x - y)
CASS_SIMD(__vaddss, true, (::cass::detail::saturate_lane<bits, true>(x + y)))
CASS_SIMD(__vsubss, true, (::cass::detail::saturate_lane<bits, true>(x - y)))
CASS_SIMD(__vaddus, false, (::cass::detail::saturate_lane<bits, false>(x + y)))
CASS_SIMD(__vsubus, false, (::cass::detail::saturate_lane<bits, false>(x - y)))
CASS_SIMD(__vabsdiffs, true, x > y ? x - y : y - x)
CASS_SIMD(__vabsdiffu, false, x > y ? x - y : y - x)
CASS_SIMD(__vavgu, false, (x + y + 1) >> 1)
CASS_SIMD(__vhaddu, false, (x + y) >> 1)
CASS_SIMD(__vmaxs, true, x > y ? x : y)
CASS_SIMD(__vmaxu, false, x > y ? x : y)
CASS_SIMD(__vmins, true, x < y ? x : y)
CASS_SIMD(__vminu, false, x < y ? x : y)
CASS_SIMD(__vcmpeq, false, x == y ? -1 : 0)
CASS_SIMD(__vcmpne, false, x != y ? -1 : 0)
CASS_SIMD(__vcmpges, true, x >= y ? -1 : 0)
CASS_SIMD(__vcmpgeu, false, x >= y ? -1 : 0)
CASS_SIMD(__vcmpgts, true, x > y ? -1 : 0)
CASS_SIMD(__vcmpgtu, false, x > y ? -1 : 0)
CASS_SIMD(__vcmples, true, x <= y ? -1 : 0)
CASS_SIMD(__vcmpleu, false, x <= y ? -1 : 0)
CASS_SIMD(__vcmplts, true, x < y ? -1 : 0)
CASS_SIMD(__vcmpltu, false, x < y ? -1 : 0)
CASS_SIMD(__vseteq, false, x == y)
CASS_SIMD(__vsetne, false, x != y)
CASS_SIMD(__vsetges, true, x >= y)
CASS_SIMD(__vsetgeu, false, x >= y)
CASS_SIMD(__vsetgts, true, x > y)
CASS_SIMD(__vsetgtu, false, x > y)
CASS_SIMD(__vsetles, true, x <= y)
CASS_SIMD(__vsetleu, false, x <= y)
CASS_SIMD(__vsetlts, true, x < y)
CASS_SIMD(__vsetltu, false, x < y)
#undef CASS_SIMD
inline unsigned int __vabs2(unsigned int a) { return __vabsdiffs2(a, 0); }
inline unsigned int __vabs4(unsigned int a) { return __vabsdiffs4(a, 0); }
inline unsigned int __vabsss2(unsigned int a) { return __vmaxs2(a, __vsubss2(0, a)); }
inline unsigned int __vabsss4(unsigned int a) { return __vmaxs4(a, __vsubss4(0, a)); }
inline unsigned int __vneg2(unsigned int a) { return __vsub2(0, a); }
inline unsigned int __vneg4(unsigned int a) { return __vsub4(0, a); }
inline unsigned int __vnegss2(unsigned int a) { return __vsubss2(0, a); }
inline unsigned int __vnegss4(unsigned int a) { return __vsubss4(0, a); }
inline unsigned int __vsads2(unsigned int a, unsigned int b) { return ::cass::detail::sum_abs_diff<16, true>(a, b); }
inline unsigned int __vsads4(unsigned int a, unsigned int b) { return ::cass::detail::sum_abs_diff<8, true>(a, b); }
inline unsigned int __vsadu2(unsigned int a, unsigned int b) { return ::cass::detail::sum_abs_diff<16, false>(a, b); }
inline unsigned int __vsadu4(unsigned int a, unsigned int b) { return ::cass::detail::sum_abs_diff<8, false>(a, b); }
