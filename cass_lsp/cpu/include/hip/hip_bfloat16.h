// CPU runtime replacement for <hip/hip_bfloat16.h>: the older hip_bfloat16 class (rocBLAS's), a
// type of its own with the header's conversion: round to nearest even, a NaN kept NaN with its sign.
#pragma once
#define _HIP_BFLOAT16_H_
#include <cmath>
#include <cstdint>
#include <cstring>
#include <ostream>

#include <cass_cpu/hip_api.hpp>

struct hip_bfloat16 {
  uint16_t data;
  enum truncate_t { truncate };
  hip_bfloat16() = default;
  explicit hip_bfloat16(float f) : data(float_to_bfloat16(f)) {}
  hip_bfloat16(float f, truncate_t) : data(truncate_float_to_bfloat16(f)) {}
  operator float() const {
    uint32_t x = static_cast<uint32_t>(data) << 16;
    float f;
    std::memcpy(&f, &x, 4);
    return f;
  }
  static hip_bfloat16 round_to_bfloat16(float f) { return hip_bfloat16(f); }
  static uint16_t float_to_bfloat16(float f) {
    uint32_t x;
    std::memcpy(&x, &f, 4);
    if (~x & 0x7f800000u) x += 0x7fffu + ((x >> 16) & 1u);  // finite: to nearest even
    else if (x & 0xffffu) x |= 0x10000u;                    // a NaN whose payload is all below: kept NaN
    return static_cast<uint16_t>(x >> 16);
  }
  static uint16_t truncate_float_to_bfloat16(float f) {
    uint32_t x;
    std::memcpy(&x, &f, 4);
    return static_cast<uint16_t>(x >> 16) | ((x & 0x7f800000u) == 0x7f800000u && (x & 0xffffu) ? 1u : 0u);  // a NaN stays NaN
  }
  hip_bfloat16& operator+=(hip_bfloat16 o) { return *this = hip_bfloat16(float(*this) + float(o)); }
  hip_bfloat16& operator-=(hip_bfloat16 o) { return *this = hip_bfloat16(float(*this) - float(o)); }
  hip_bfloat16& operator*=(hip_bfloat16 o) { return *this = hip_bfloat16(float(*this) * float(o)); }
  hip_bfloat16& operator/=(hip_bfloat16 o) { return *this = hip_bfloat16(float(*this) / float(o)); }
};
inline hip_bfloat16 operator+(hip_bfloat16 a, hip_bfloat16 b) { return hip_bfloat16(float(a) + float(b)); }
inline hip_bfloat16 operator-(hip_bfloat16 a, hip_bfloat16 b) { return hip_bfloat16(float(a) - float(b)); }
inline hip_bfloat16 operator*(hip_bfloat16 a, hip_bfloat16 b) { return hip_bfloat16(float(a) * float(b)); }
inline hip_bfloat16 operator/(hip_bfloat16 a, hip_bfloat16 b) { return hip_bfloat16(float(a) / float(b)); }
inline hip_bfloat16 operator-(hip_bfloat16 a) {
  a.data ^= 0x8000u;
  return a;
}
inline bool operator==(hip_bfloat16 a, hip_bfloat16 b) { return float(a) == float(b); }
inline bool operator!=(hip_bfloat16 a, hip_bfloat16 b) { return float(a) != float(b); }
inline bool operator<(hip_bfloat16 a, hip_bfloat16 b) { return float(a) < float(b); }
inline bool operator<=(hip_bfloat16 a, hip_bfloat16 b) { return float(a) <= float(b); }
inline bool operator>(hip_bfloat16 a, hip_bfloat16 b) { return float(a) > float(b); }
inline bool operator>=(hip_bfloat16 a, hip_bfloat16 b) { return float(a) >= float(b); }
inline std::ostream& operator<<(std::ostream& os, const hip_bfloat16& bf16) { return os << float(bf16); }
inline bool isinf(hip_bfloat16 a) { return std::isinf(float(a)); }
inline bool isnan(hip_bfloat16 a) { return std::isnan(float(a)); }
inline bool iszero(hip_bfloat16 a) { return (a.data & 0x7fffu) == 0; }
inline hip_bfloat16 abs(hip_bfloat16 a) {
  a.data &= 0x7fffu;
  return a;
}
inline hip_bfloat16 sin(hip_bfloat16 a) { return hip_bfloat16(sinf(float(a))); }
inline hip_bfloat16 cos(hip_bfloat16 a) { return hip_bfloat16(cosf(float(a))); }
