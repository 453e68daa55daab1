// Inline PTX on the CPU: the helpers rewrite.py's translation of an asm("...") statement calls, one
// per instruction, with the PTX ISA's semantics (bit-exact for the integer forms).
#pragma once
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "half_bits.hpp"

namespace cass {
namespace ptx {

// An operand's C++ value read as PTX type T: same-kind values convert, a float read as .b32 (or an
// int read as .f32) keeps its bits, a pointer read as .u64 is its address.
template <class T, class V>
inline T get(const V& v) {
  using U = std::remove_cv_t<std::remove_reference_t<V>>;
  if constexpr (std::is_pointer_v<U>) {
    return static_cast<T>(reinterpret_cast<std::uintptr_t>(v));
  } else if constexpr (std::is_floating_point_v<U> != std::is_floating_point_v<T> && sizeof(U) == sizeof(T)) {
    T out;
    std::memcpy(&out, &v, sizeof(T));
    return out;
  } else {
    return static_cast<T>(v);
  }
}
template <class T, class D>
inline void set(D& d, T v) {
  using U = std::remove_cv_t<D>;
  if constexpr (std::is_pointer_v<U>) {
    d = reinterpret_cast<U>(static_cast<std::uintptr_t>(v));
  } else if constexpr (std::is_floating_point_v<U> != std::is_floating_point_v<T> && sizeof(U) == sizeof(T)) {
    std::memcpy(&d, &v, sizeof(T));
  } else {
    d = static_cast<U>(v);
  }
}

// The carry flag (CC.CF) that add.cc/addc chains pass on, across consecutive asm statements too:
// fibers switch only at barriers and warp collectives, never inside a chain.
inline thread_local unsigned carry = 0;

template <class T>
constexpr unsigned bits() { return sizeof(T) * 8; }
template <class T>
using unsigned_of = std::make_unsigned_t<T>;

// ---- special registers ----
inline unsigned laneid() { return ::cass::detail::this_thread()->lane; }
inline unsigned warpid() { return ::cass::detail::this_thread()->warp; }
inline unsigned nwarpid() { return ::cass::detail::this_thread()->block->nwarps; }
inline unsigned long long globaltimer() {
  return static_cast<unsigned long long>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count());
}
inline unsigned lanemask(int which) {  // 0 eq, 1 lt, 2 le, 3 gt, 4 ge
  unsigned lane = laneid() & 31, one = 1u << lane;
  switch (which) {
    case 0: return one;
    case 1: return one - 1;
    case 2: return (one - 1) | one;
    case 3: return ~((one - 1) | one);
    default: return ~(one - 1);
  }
}

// ---- integer arithmetic ----
template <class T>
inline T mul_hi(T a, T b) {
  if constexpr (sizeof(T) == 8) {
    using W = std::conditional_t<std::is_signed_v<T>, __int128, unsigned __int128>;
    return static_cast<T>((static_cast<W>(a) * static_cast<W>(b)) >> 64);
  } else {
    using W = std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>;
    return static_cast<T>((static_cast<W>(a) * static_cast<W>(b)) >> bits<T>());
  }
}
template <class T>
inline T mul_lo(T a, T b) { return static_cast<T>(static_cast<unsigned_of<T>>(a) * static_cast<unsigned_of<T>>(b)); }
template <class T>
inline auto mul_wide(T a, T b) {
  using W = std::conditional_t<std::is_signed_v<T>, std::conditional_t<sizeof(T) == 2, std::int32_t, std::int64_t>,
                               std::conditional_t<sizeof(T) == 2, std::uint32_t, std::uint64_t>>;
  return static_cast<W>(static_cast<W>(a) * static_cast<W>(b));
}
template <class T>
inline T add(T a, T b) { return static_cast<T>(static_cast<unsigned_of<T>>(a) + static_cast<unsigned_of<T>>(b)); }
template <class T>
inline T sub(T a, T b) { return static_cast<T>(static_cast<unsigned_of<T>>(a) - static_cast<unsigned_of<T>>(b)); }

// add.cc / addc / sub.cc / subc: modular sums with the carry (borrow for sub) in and out.
template <class T>
inline T add_carry(T a, T b, bool carry_in, bool carry_out) {
  using U = unsigned_of<T>;
  U x = static_cast<U>(a), y = static_cast<U>(b), c = carry_in ? carry : 0u;
  U s = static_cast<U>(x + y);
  unsigned out = s < x;
  U r = static_cast<U>(s + c);
  out |= r < s;
  if (carry_out) carry = out;
  return static_cast<T>(r);
}
template <class T>
inline T sub_carry(T a, T b, bool borrow_in, bool borrow_out) {
  using U = unsigned_of<T>;
  U x = static_cast<U>(a), y = static_cast<U>(b), c = borrow_in ? carry : 0u;
  U d = static_cast<U>(x - y);
  unsigned out = x < y;
  U r = static_cast<U>(d - c);
  out |= d < c;
  if (borrow_out) carry = out;
  return static_cast<T>(r);
}
// mad{c}.lo/hi{.cc}: (a*b).lo or .hi plus c, with the carry in (madc) and out (.cc).
template <class T>
inline T mad_carry(T a, T b, T c, bool hi, bool carry_in, bool carry_out) {
  T product = hi ? mul_hi(a, b) : mul_lo(a, b);
  return add_carry(product, c, carry_in, carry_out);
}

// ---- bit manipulation ----
template <class T>
inline T bfe(T a, unsigned b, unsigned c) {
  using U = unsigned_of<T>;
  const unsigned msb = bits<T>() - 1, pos = b & 0xff, len = c & 0xff;
  U x = static_cast<U>(a);
  unsigned sbit = 0;
  if (std::is_signed_v<T> && len != 0) sbit = (x >> (pos + len - 1 < msb ? pos + len - 1 : msb)) & 1u;
  U d = 0;
  for (unsigned i = 0; i <= msb; ++i) {
    unsigned bit = (i < len && pos + i <= msb) ? (x >> (pos + i)) & 1u : sbit;
    d |= static_cast<U>(bit) << i;
  }
  return static_cast<T>(d);
}
template <class T>
inline T bfi(T a, T b, unsigned c, unsigned d) {
  using U = unsigned_of<T>;
  const unsigned msb = bits<T>() - 1, pos = c & 0xff, len = d & 0xff;
  U f = static_cast<U>(b), x = static_cast<U>(a);
  for (unsigned i = 0; i < len && pos + i <= msb; ++i) {
    U bit = static_cast<U>(1) << (pos + i);
    f = ((x >> i) & 1u) ? (f | bit) : (f & ~bit);
  }
  return static_cast<T>(f);
}
// prmt.b32{.mode}; mode: 0 generic, 1 f4e, 2 b4e, 3 rc8, 4 ecl, 5 ecr, 6 rc16.
inline std::uint32_t prmt(std::uint32_t a, std::uint32_t b, std::uint32_t c, int mode) {
  const std::uint64_t tmp = (static_cast<std::uint64_t>(b) << 32) | a;
  auto byte = [&](unsigned i) { return static_cast<std::uint32_t>((tmp >> (8 * (i & 7))) & 0xff); };
  std::uint32_t d = 0;
  if (mode == 0) {
    for (unsigned i = 0; i < 4; ++i) {
      unsigned ctl = (c >> (4 * i)) & 0xf;
      std::uint32_t v = byte(ctl & 7);
      if (ctl & 8) v = (v & 0x80) ? 0xff : 0;
      d |= v << (8 * i);
    }
    return d;
  }
  // The selected bytes for d.b0..d.b3 (PTX ISA's table for each mode, indexed by c[1:0]).
  static const unsigned char table[6][4][4] = {
      {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}},  // f4e
      {{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}},  // b4e
      {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}},  // rc8
      {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}},  // ecl
      {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}},  // ecr
      {{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}},  // rc16
  };
  const unsigned char* sel = table[mode - 1][c & 3];
  for (unsigned i = 0; i < 4; ++i) d |= byte(sel[i]) << (8 * i);
  return d;
}
inline std::uint32_t lop3(std::uint32_t a, std::uint32_t b, std::uint32_t c, unsigned lut) {
  std::uint32_t r = 0;
  for (unsigned i = 0; i < 8; ++i) {
    if ((lut >> i) & 1u) r |= ((i & 4) ? a : ~a) & ((i & 2) ? b : ~b) & ((i & 1) ? c : ~c);
  }
  return r;
}
// shf.{l,r}.{wrap,clamp}.b32 d, a, b, c: the 64-bit {b, a} shifted by c, upper (l) or lower (r) half.
inline std::uint32_t shf(std::uint32_t a, std::uint32_t b, std::uint32_t c, bool left, bool wrap) {
  unsigned n = wrap ? (c & 31) : (c < 32 ? c : 32);
  std::uint64_t v = (static_cast<std::uint64_t>(b) << 32) | a;
  return left ? static_cast<std::uint32_t>((v << n) >> 32) : static_cast<std::uint32_t>(v >> n);
}
template <class T>
inline T brev(T a) {
  using U = unsigned_of<T>;
  U x = static_cast<U>(a), r = 0;
  for (unsigned i = 0; i < bits<T>(); ++i) r |= static_cast<U>((x >> i) & 1u) << (bits<T>() - 1 - i);
  return static_cast<T>(r);
}
template <class T>
inline std::uint32_t popc(T a) {
  using U = unsigned_of<T>;
  return static_cast<std::uint32_t>(__builtin_popcountll(static_cast<unsigned long long>(static_cast<U>(a))));
}
template <class T>
inline std::uint32_t clz(T a) {
  using U = unsigned_of<T>;
  U x = static_cast<U>(a);
  std::uint32_t n = 0;
  for (int i = static_cast<int>(bits<T>()) - 1; i >= 0 && !((x >> i) & 1u); --i) ++n;
  return n;
}
// bfind: the position of the most significant non-sign bit, 0xffffffff when there is none.
template <class T>
inline std::uint32_t bfind(T a, bool shiftamt) {
  using U = unsigned_of<T>;
  U x = static_cast<U>(a);
  if (std::is_signed_v<T> && a < 0) x = static_cast<U>(~x);
  for (int i = static_cast<int>(bits<T>()) - 1; i >= 0; --i) {
    if ((x >> i) & 1u) return shiftamt ? bits<T>() - 1 - static_cast<unsigned>(i) : static_cast<unsigned>(i);
  }
  return 0xffffffffu;
}
template <class T>
inline T shl(T a, std::uint32_t n) {
  return n >= bits<T>() ? T(0) : static_cast<T>(static_cast<unsigned_of<T>>(a) << n);
}
template <class T>
inline T shr(T a, std::uint32_t n) {
  if constexpr (std::is_signed_v<T>) return n >= bits<T>() ? (a < 0 ? T(-1) : T(0)) : static_cast<T>(a >> n);
  else return n >= bits<T>() ? T(0) : static_cast<T>(a >> n);
}

// ---- conversions (cvt) ----
// rounding: 0 none/rn (nearest even), 1 rz, 2 rm, 3 rp; integer rounding modes (rni/rzi/...) too.
template <class F>
inline F round_float(F v, int rounding) {
  switch (rounding) {
    case 1: return std::trunc(v);
    case 2: return std::floor(v);
    case 3: return std::ceil(v);
    default: return std::nearbyint(v);  // default FP environment: round to nearest even
  }
}
// A float converted to integer type D: rounded, then clamped (PTX saturates float-to-int always;
// NaN becomes 0).
template <class D, class F>
inline D float_to_int(F v, int rounding) {
  if (std::isnan(v)) return D(0);
  F r = round_float(v, rounding);
  if (r <= static_cast<F>(std::numeric_limits<D>::min())) return std::numeric_limits<D>::min();
  if (r >= static_cast<F>(std::numeric_limits<D>::max())) return std::numeric_limits<D>::max();
  return static_cast<D>(r);
}
template <class D, class S>
inline D saturate_int(S v) {
  using W = std::conditional_t<std::is_signed_v<S> || std::is_signed_v<D>, long long, unsigned long long>;
  if constexpr (std::is_signed_v<S> && !std::is_signed_v<D>) {
    if (v < 0) return D(0);
  }
  if constexpr (!std::is_signed_v<S> && std::is_signed_v<D>) {
    if (static_cast<unsigned long long>(v) > static_cast<unsigned long long>(std::numeric_limits<D>::max()))
      return std::numeric_limits<D>::max();
    return static_cast<D>(v);
  } else {
    W w = static_cast<W>(v);
    if (w < static_cast<W>(std::numeric_limits<D>::min())) return std::numeric_limits<D>::min();
    if (w > static_cast<W>(std::numeric_limits<D>::max())) return std::numeric_limits<D>::max();
    return static_cast<D>(v);
  }
}
template <class F>
inline F saturate_float(F v) {
  if (std::isnan(v)) return F(0);
  return v < F(0) ? F(0) : (v > F(1) ? F(1) : v);
}
template <class D, class S>
inline D cvt(S v, int rounding, bool integer_rounding, bool sat) {
  if constexpr (std::is_floating_point_v<S> && std::is_integral_v<D>) {
    return float_to_int<D>(v, rounding);
  } else if constexpr (std::is_floating_point_v<S> && std::is_floating_point_v<D>) {
    S r = integer_rounding ? round_float(v, rounding) : v;
    D out = static_cast<D>(r);  // narrowing rounds to nearest in the default environment
    return sat ? saturate_float(out) : out;
  } else if constexpr (std::is_integral_v<S> && std::is_floating_point_v<D>) {
    D out = static_cast<D>(v);
    return sat ? saturate_float(out) : out;
  } else {
    return sat ? saturate_int<D>(v) : static_cast<D>(v);
  }
}

// cvt.rn.f16.f32 and cvt.f32.f16: a .f16 register holds binary16 bits.
inline std::uint16_t f32_to_f16(float v) { return ::cass::detail::float_to_half_bits(v); }
inline float f16_to_f32(std::uint16_t h) { return ::cass::detail::half_bits_to_float(h); }

// ---- memory ----
template <class T>
inline T load(std::uint64_t address) {
  T v;
  std::memcpy(&v, reinterpret_cast<const void*>(static_cast<std::uintptr_t>(address)), sizeof(T));
  return v;
}
template <class T>
inline void store(std::uint64_t address, T v) {
  std::memcpy(reinterpret_cast<void*>(static_cast<std::uintptr_t>(address)), &v, sizeof(T));
}
inline void fence() { std::atomic_thread_fence(std::memory_order_seq_cst); }

// ---- warp ----
// shfl.sync's c operand packs the clamp value (bits 0-4) and the segment mask (bits 8-12).
inline int shfl_width(std::uint32_t c) { return 32 - static_cast<int>((c >> 8) & 0x1f); }

}  // namespace ptx
}  // namespace cass
