// binary16 bits <-> float (round to nearest even): __half and inline PTX cvt share them.
#pragma once
#include <cstring>

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
