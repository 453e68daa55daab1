// cuRAND on the CPU runtime: the XORWOW, Philox4x32-10 and MRG32k3a generators with cuRAND's own
// seeding, skip-ahead and output transforms, so a kernel draws the numbers it draws on an NVIDIA GPU
// (bit for bit for integers and uniforms; normals through the host's sinf/cosf/logf, where the GPU
// uses __sincosf, so within float rounding). One implementation serves cuRAND, hipRAND and rocRAND
// (cass_cpu/hiprand.hpp and rocrand.hpp map their names onto these).
//
// What is not here (MTGP32, MT19937, Sobol, Poisson, discrete distributions, orderings) is not
// declared, so refuse.py refuses a program that names it before it is built.
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <new>
#include <vector>

#include "runtime.hpp"

namespace cass::rand {

// ---- XORWOW (Marsaglia 2003) and its jumps over GF(2) ----

// A linear map of the 160-bit XORWOW state: image[r] is the image of state bit r (word r / 32, bit r % 32).
struct Gf2Map {
  uint32_t image[160][5];
};

inline void xorwow_step(uint32_t v[5]) {
  const uint32_t t = v[0] ^ (v[0] >> 2);
  v[0] = v[1];
  v[1] = v[2];
  v[2] = v[3];
  v[3] = v[4];
  v[4] = (v[4] ^ (v[4] << 4)) ^ (t ^ (t << 1));
}

inline void apply(const Gf2Map& map, uint32_t v[5]) {
  uint32_t out[5] = {0, 0, 0, 0, 0};
  for (int word = 0; word < 5; ++word) {
    for (uint32_t bits = v[word]; bits != 0; bits &= bits - 1) {
      const uint32_t* image = map.image[word * 32 + __builtin_ctz(bits)];
      for (int w = 0; w < 5; ++w) out[w] ^= image[w];
    }
  }
  for (int w = 0; w < 5; ++w) v[w] = out[w];
}

inline void square(const Gf2Map& map, Gf2Map& out) {
  for (int bit = 0; bit < 160; ++bit) {
    for (int w = 0; w < 5; ++w) out.image[bit][w] = map.image[bit][w];
    apply(map, out.image[bit]);
  }
}

// M^(2^k) (a skip of 2^k draws) and M^(2^(67+k)) (2^k subsequences of 2^67 draws) for k < 64:
// 400 KB computed once, on first use, by repeated squaring of the one-step map.
struct XorwowJumps {
  Gf2Map draws[64];
  Gf2Map subsequences[64];

  XorwowJumps() {
    for (int bit = 0; bit < 160; ++bit) {
      uint32_t* v = draws[0].image[bit];
      for (int w = 0; w < 5; ++w) v[w] = 0;
      v[bit / 32] = 1u << (bit % 32);
      xorwow_step(v);
    }
    for (int k = 1; k < 64; ++k) square(draws[k - 1], draws[k]);
    Gf2Map a, b;
    square(draws[63], a);  // 2^64
    square(a, b);          // 2^65
    square(b, a);          // 2^66
    square(a, subsequences[0]);
    for (int k = 1; k < 64; ++k) square(subsequences[k - 1], subsequences[k]);
  }
};

inline const XorwowJumps& xorwow_jumps() {
  static const XorwowJumps* jumps = new XorwowJumps();  // never freed: kernels may run during exit
  return *jumps;
}

// ---- MRG32k3a (L'Ecuyer 1999) and its jumps modulo m1, m2 ----

constexpr uint64_t kMrgM1 = 4294967087ull;
constexpr uint64_t kMrgM2 = 4294944443ull;
constexpr double kMrgNorm = 2.3283065498378288e-10;
constexpr double kMrgBitsNorm = 1.000000048662;

struct Mat3 {
  uint64_t m[3][3];
};

inline Mat3 multiply(const Mat3& a, const Mat3& b, uint64_t mod) {
  Mat3 r{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      uint64_t s = 0;
      for (int k = 0; k < 3; ++k) s = (s + a.m[i][k] * b.m[k][j] % mod) % mod;
      r.m[i][j] = s;
    }
  return r;
}

inline void apply(const Mat3& a, unsigned int s[3], uint64_t mod) {
  uint64_t out[3];
  for (int i = 0; i < 3; ++i) {
    uint64_t acc = 0;
    for (int k = 0; k < 3; ++k) acc = (acc + a.m[i][k] * (s[k] % mod) % mod) % mod;
    out[i] = acc;
  }
  for (int i = 0; i < 3; ++i) s[i] = static_cast<unsigned int>(out[i]);
}

// A^(2^k) of both components for k < 192: skips of draws (k), subsequences (76 + k), sequences (127 + k).
struct MrgJumps {
  Mat3 a1[192];
  Mat3 a2[192];

  MrgJumps() {
    a1[0] = Mat3{{{0, 1, 0}, {0, 0, 1}, {kMrgM1 - 810728u, 1403580u, 0}}};
    a2[0] = Mat3{{{0, 1, 0}, {0, 0, 1}, {kMrgM2 - 1370589u, 0, 527612u}}};
    for (int k = 1; k < 192; ++k) {
      a1[k] = multiply(a1[k - 1], a1[k - 1], kMrgM1);
      a2[k] = multiply(a2[k - 1], a2[k - 1], kMrgM2);
    }
  }
};

inline const MrgJumps& mrg_jumps() {
  static const MrgJumps* jumps = new MrgJumps();
  return *jumps;
}

// ---- Philox4x32-10 (Salmon et al. 2011) ----

inline uint4 philox_round(uint4 c, uint2 k) {
  const uint64_t p0 = uint64_t{0xD2511F53u} * c.x;
  const uint64_t p1 = uint64_t{0xCD9E8D57u} * c.z;
  return uint4{static_cast<uint32_t>(p1 >> 32) ^ c.y ^ k.x, static_cast<uint32_t>(p1),
               static_cast<uint32_t>(p0 >> 32) ^ c.w ^ k.y, static_cast<uint32_t>(p0)};
}

inline uint4 philox4x32_10(uint4 c, uint2 k) {
  for (int round = 0; round < 9; ++round) {
    c = philox_round(c, k);
    k.x += 0x9E3779B9u;
    k.y += 0xBB67AE85u;
  }
  return philox_round(c, k);
}

// ---- cuRAND's output transforms (curand_uniform.h, curand_normal.h): nvcc contracts x * a + b into
// one fma, so they are written as fmas here ----

constexpr float k2Pow32Inv = 2.3283064e-10f;
constexpr double k2Pow32InvDouble = 2.3283064365386963e-10;
constexpr double k2Pow53InvDouble = 1.1102230246251565e-16;
constexpr float k2Pi = 6.2831855f;
constexpr double kPiDouble = 3.1415926535897932;

inline float uniform(unsigned int x) { return std::fmaf(static_cast<float>(x), k2Pow32Inv, k2Pow32Inv / 2.0f); }
inline double uniform_double(unsigned int x) { return std::fma(static_cast<double>(x), k2Pow32InvDouble, k2Pow32InvDouble); }
inline double uniform_double_hq(unsigned int x, unsigned int y) {
  const uint64_t z = uint64_t{x} ^ (uint64_t{y} << (53 - 32));
  return std::fma(static_cast<double>(z), k2Pow53InvDouble, k2Pow53InvDouble / 2.0);
}

inline float2 box_muller(unsigned int x, unsigned int y) {
  const float u = uniform(x);
  constexpr float inv_2pi = k2Pow32Inv * k2Pi;
  const float v = std::fmaf(static_cast<float>(y), inv_2pi, inv_2pi / 2.0f);
  const float s = std::sqrt(-2.0f * std::log(u));
  return float2{std::sin(v) * s, std::cos(v) * s};
}

inline double2 box_muller_double(unsigned int x0, unsigned int x1, unsigned int y0, unsigned int y1) {
  const double u = uniform_double_hq(x0, x1);
  const uint64_t zy = uint64_t{y0} ^ (uint64_t{y1} << (53 - 32));
  const double v = std::fma(static_cast<double>(zy), k2Pow53InvDouble * 2.0, k2Pow53InvDouble);
  const double s = std::sqrt(-2.0 * std::log(u));
  return double2{std::sin(v * kPiDouble) * s, std::cos(v * kPiDouble) * s};
}

}  // namespace cass::rand

// ---- device API (<curand_kernel.h>) ----

#define EXTRA_FLAG_NORMAL 0x00000001
#define EXTRA_FLAG_LOG_NORMAL 0x00000002

struct curandStateXORWOW {
  unsigned int d, v[5];
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef struct curandStateXORWOW curandStateXORWOW_t;
typedef struct curandStateXORWOW curandState_t;
typedef struct curandStateXORWOW curandState;

struct curandStatePhilox4_32_10 {
  uint4 ctr;
  uint4 output;
  uint2 key;
  unsigned int STATE;
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef struct curandStatePhilox4_32_10 curandStatePhilox4_32_10_t;

struct curandStateMRG32k3a {
  unsigned int s1[3];
  unsigned int s2[3];
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef struct curandStateMRG32k3a curandStateMRG32k3a_t;

namespace cass::rand {
template <typename State>
inline void clear_cache(State* state) {
  state->boxmuller_flag = 0;
  state->boxmuller_flag_double = 0;
  state->boxmuller_extra = 0.f;
  state->boxmuller_extra_double = 0.;
}

inline void philox_advance(curandStatePhilox4_32_10_t* s, unsigned long long n) {
  // cuRAND's carry from y into z, kept as it is so the counters match
  const unsigned int lo = static_cast<unsigned int>(n);
  unsigned int hi = static_cast<unsigned int>(n >> 32);
  s->ctr.x += lo;
  if (s->ctr.x < lo) hi++;
  s->ctr.y += hi;
  if (hi <= s->ctr.y) return;
  if (++s->ctr.z) return;
  ++s->ctr.w;
}

inline void philox_advance(curandStatePhilox4_32_10_t* s) {
  if (++s->ctr.x) return;
  if (++s->ctr.y) return;
  if (++s->ctr.z) return;
  ++s->ctr.w;
}

// the draw of MRG32k3a, in (0, m1]
inline double mrg_draw(curandStateMRG32k3a_t* state) {
  const uint64_t p1 = (1403580ull * state->s1[1] + 810728ull * (kMrgM1 - state->s1[0])) % kMrgM1;
  state->s1[0] = state->s1[1];
  state->s1[1] = state->s1[2];
  state->s1[2] = static_cast<unsigned int>(p1);
  const uint64_t p2 = (527612ull * state->s2[2] + 1370589ull * (kMrgM2 - state->s2[0])) % kMrgM2;
  state->s2[0] = state->s2[1];
  state->s2[1] = state->s2[2];
  state->s2[2] = static_cast<unsigned int>(p2);
  return p1 <= p2 ? static_cast<double>(p1 + kMrgM1 - p2) : static_cast<double>(p1 - p2);
}

inline void mrg_skip(curandStateMRG32k3a_t* state, unsigned long long n, int first_power) {
  const MrgJumps& jumps = mrg_jumps();
  for (int k = 0; n != 0 && first_power + k < 192; ++k, n >>= 1) {
    if (n & 1u) {
      apply(jumps.a1[first_power + k], state->s1, kMrgM1);
      apply(jumps.a2[first_power + k], state->s2, kMrgM2);
    }
  }
}
}  // namespace cass::rand

__device__ inline unsigned int curand(curandStateXORWOW_t* state) {
  cass::rand::xorwow_step(state->v);
  state->d += 362437;
  return state->v[4] + state->d;
}

__device__ inline void skipahead(unsigned long long n, curandStateXORWOW_t* state) {
  const cass::rand::XorwowJumps& jumps = cass::rand::xorwow_jumps();
  for (int k = 0; k < 64; ++k)
    if ((n >> k) & 1u) cass::rand::apply(jumps.draws[k], state->v);
  state->d += 362437u * static_cast<unsigned int>(n);
}

// 2^67 draws a subsequence: d moves by a multiple of 2^32, so it stays
__device__ inline void skipahead_sequence(unsigned long long n, curandStateXORWOW_t* state) {
  const cass::rand::XorwowJumps& jumps = cass::rand::xorwow_jumps();
  for (int k = 0; k < 64; ++k)
    if ((n >> k) & 1u) cass::rand::apply(jumps.subsequences[k], state->v);
}

__device__ inline void curand_init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                                   curandStateXORWOW_t* state) {
  const unsigned int s0 = static_cast<unsigned int>(seed) ^ 0xaad26b49u;
  const unsigned int s1 = static_cast<unsigned int>(seed >> 32) ^ 0xf7dcefddu;
  const unsigned int t0 = 1099087573u * s0;
  const unsigned int t1 = 2591861531u * s1;
  state->d = 6615241u + t1 + t0;
  state->v[0] = 123456789u + t0;
  state->v[1] = 362436069u ^ t0;
  state->v[2] = 521288629u + t1;
  state->v[3] = 88675123u ^ t1;
  state->v[4] = 5783321u + t0;
  skipahead_sequence(subsequence, state);
  skipahead(offset, state);
  cass::rand::clear_cache(state);
}

__device__ inline unsigned int curand(curandStatePhilox4_32_10_t* state) {
  unsigned int out;
  switch (state->STATE++) {
    case 1: out = state->output.y; break;
    case 2: out = state->output.z; break;
    case 3: out = state->output.w; break;
    default: out = state->output.x; break;
  }
  if (state->STATE == 4) {
    cass::rand::philox_advance(state);
    state->output = cass::rand::philox4x32_10(state->ctr, state->key);
    state->STATE = 0;
  }
  return out;
}

__device__ inline uint4 curand4(curandStatePhilox4_32_10_t* state) {
  const uint4 held = state->output;
  cass::rand::philox_advance(state);
  state->output = cass::rand::philox4x32_10(state->ctr, state->key);
  const uint4 next = state->output;
  switch (state->STATE) {
    case 1: return uint4{held.y, held.z, held.w, next.x};
    case 2: return uint4{held.z, held.w, next.x, next.y};
    case 3: return uint4{held.w, next.x, next.y, next.z};
    default: return held;
  }
}

__device__ inline void skipahead(unsigned long long n, curandStatePhilox4_32_10_t* state) {
  state->STATE += static_cast<unsigned int>(n & 3);
  n /= 4;
  if (state->STATE > 3) {
    n += 1;
    state->STATE -= 4;
  }
  cass::rand::philox_advance(state, n);
  state->output = cass::rand::philox4x32_10(state->ctr, state->key);
}

// a subsequence is 2^66 draws: the counter's upper half
__device__ inline void skipahead_sequence(unsigned long long n, curandStatePhilox4_32_10_t* state) {
  const unsigned int lo = static_cast<unsigned int>(n);
  unsigned int hi = static_cast<unsigned int>(n >> 32);
  state->ctr.z += lo;
  if (state->ctr.z < lo) hi++;
  state->ctr.w += hi;
  state->output = cass::rand::philox4x32_10(state->ctr, state->key);
}

__device__ inline void curand_init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                                   curandStatePhilox4_32_10_t* state) {
  state->ctr = uint4{0, 0, 0, 0};
  state->key = uint2{static_cast<unsigned int>(seed), static_cast<unsigned int>(seed >> 32)};
  state->STATE = 0;
  cass::rand::clear_cache(state);
  skipahead_sequence(subsequence, state);
  skipahead(offset, state);
}

__device__ inline unsigned int curand(curandStateMRG32k3a_t* state) {
  return static_cast<unsigned int>(cass::rand::mrg_draw(state) * cass::rand::kMrgBitsNorm);
}

__device__ inline void skipahead(unsigned long long n, curandStateMRG32k3a_t* state) { cass::rand::mrg_skip(state, n, 0); }
// a subsequence is 2^76 draws, a sequence 2^127
__device__ inline void skipahead_subsequence(unsigned long long n, curandStateMRG32k3a_t* state) {
  cass::rand::mrg_skip(state, n, 76);
}
__device__ inline void skipahead_sequence(unsigned long long n, curandStateMRG32k3a_t* state) {
  cass::rand::mrg_skip(state, n, 127);
}

__device__ inline void curand_init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                                   curandStateMRG32k3a_t* state) {
  for (int i = 0; i < 3; ++i) state->s1[i] = state->s2[i] = 12345u;
  if (seed != 0ull) {
    const uint64_t x1 = static_cast<unsigned int>(seed) ^ 0x55555555u;
    const uint64_t x2 = static_cast<unsigned int>((seed >> 32) ^ 0xAAAAAAAAull);
    using cass::rand::kMrgM1;
    using cass::rand::kMrgM2;
    state->s1[0] = static_cast<unsigned int>(x1 * state->s1[0] % kMrgM1);
    state->s1[1] = static_cast<unsigned int>(x2 * state->s1[1] % kMrgM1);
    state->s1[2] = static_cast<unsigned int>(x1 * state->s1[2] % kMrgM1);
    state->s2[0] = static_cast<unsigned int>(x2 * state->s2[0] % kMrgM2);
    state->s2[1] = static_cast<unsigned int>(x1 * state->s2[1] % kMrgM2);
    state->s2[2] = static_cast<unsigned int>(x2 * state->s2[2] % kMrgM2);
  }
  skipahead_subsequence(subsequence, state);
  skipahead(offset, state);
  cass::rand::clear_cache(state);
}

// uniforms
__device__ inline float curand_uniform(curandStateXORWOW_t* state) { return cass::rand::uniform(curand(state)); }
__device__ inline float curand_uniform(curandStatePhilox4_32_10_t* state) { return cass::rand::uniform(curand(state)); }
__device__ inline float curand_uniform(curandStateMRG32k3a_t* state) {
  return static_cast<float>(cass::rand::mrg_draw(state) * cass::rand::kMrgNorm);
}
__device__ inline double curand_uniform_double(curandStateXORWOW_t* state) {
  const unsigned int x = curand(state);
  const unsigned int y = curand(state);
  return cass::rand::uniform_double_hq(x, y);
}
__device__ inline double curand_uniform_double(curandStatePhilox4_32_10_t* state) {
  return cass::rand::uniform_double(curand(state));
}
__device__ inline double curand_uniform_double(curandStateMRG32k3a_t* state) {
  return cass::rand::mrg_draw(state) * cass::rand::kMrgNorm;
}
__device__ inline float4 curand_uniform4(curandStatePhilox4_32_10_t* state) {
  const uint4 x = curand4(state);
  return float4{cass::rand::uniform(x.x), cass::rand::uniform(x.y), cass::rand::uniform(x.z), cass::rand::uniform(x.w)};
}
__device__ inline double2 curand_uniform2_double(curandStatePhilox4_32_10_t* state) {
  const uint4 x = curand4(state);
  return double2{cass::rand::uniform_double_hq(x.x, x.y), cass::rand::uniform_double_hq(x.z, x.w)};
}

// normals: Box-Muller pairs, the second of a pair kept for the next call
namespace cass::rand {
template <typename State>
inline float2 box_muller_pair(State* state) {
  const unsigned int x = curand(state);
  const unsigned int y = curand(state);
  return box_muller(x, y);
}
inline float2 box_muller_pair(curandStateMRG32k3a_t* state) {
  const float x = curand_uniform(state);
  const float y = curand_uniform(state) * k2Pi;
  const float s = std::sqrt(-2.0f * std::log(x));
  return float2{std::sin(y) * s, std::cos(y) * s};
}
inline double2 box_muller_pair_double(curandStateXORWOW_t* state) {
  const unsigned int x0 = curand(state), x1 = curand(state), y0 = curand(state), y1 = curand(state);
  return box_muller_double(x0, x1, y0, y1);
}
inline double2 box_muller_pair_double(curandStatePhilox4_32_10_t* state) {
  const uint4 x = curand4(state);
  return box_muller_double(x.x, x.y, x.z, x.w);
}
inline double2 box_muller_pair_double(curandStateMRG32k3a_t* state) {
  const double x = curand_uniform_double(state);
  const double y = curand_uniform_double(state) * 2.0;
  const double s = std::sqrt(-2.0 * std::log(x));
  return double2{std::sin(y * kPiDouble) * s, std::cos(y * kPiDouble) * s};
}

template <typename State>
inline float cached_normal(State* state, int flag, float mean, float stddev, bool log_normal) {
  if (state->boxmuller_flag != flag) {
    const float2 v = box_muller_pair(state);
    state->boxmuller_extra = log_normal ? std::exp(mean + stddev * v.y) : v.y;
    state->boxmuller_flag = flag;
    return log_normal ? std::exp(mean + stddev * v.x) : v.x;
  }
  state->boxmuller_flag = 0;
  return state->boxmuller_extra;
}

template <typename State>
inline double cached_normal_double(State* state, int flag, double mean, double stddev, bool log_normal) {
  if (state->boxmuller_flag_double != flag) {
    const double2 v = box_muller_pair_double(state);
    state->boxmuller_extra_double = log_normal ? std::exp(mean + stddev * v.y) : v.y;
    state->boxmuller_flag_double = flag;
    return log_normal ? std::exp(mean + stddev * v.x) : v.x;
  }
  state->boxmuller_flag_double = 0;
  return state->boxmuller_extra_double;
}
}  // namespace cass::rand

#define CASS_CURAND_NORMALS(State)                                                                              \
  __device__ inline float curand_normal(State* s) {                                                             \
    return cass::rand::cached_normal(s, EXTRA_FLAG_NORMAL, 0.f, 1.f, false);                                    \
  }                                                                                                             \
  __device__ inline double curand_normal_double(State* s) {                                                     \
    return cass::rand::cached_normal_double(s, EXTRA_FLAG_NORMAL, 0., 1., false);                               \
  }                                                                                                             \
  __device__ inline float curand_log_normal(State* s, float mean, float stddev) {                               \
    return cass::rand::cached_normal(s, EXTRA_FLAG_LOG_NORMAL, mean, stddev, true);                             \
  }                                                                                                             \
  __device__ inline double curand_log_normal_double(State* s, double mean, double stddev) {                     \
    return cass::rand::cached_normal_double(s, EXTRA_FLAG_LOG_NORMAL, mean, stddev, true);                      \
  }                                                                                                             \
  __device__ inline float2 curand_normal2(State* s) { return cass::rand::box_muller_pair(s); }                  \
  __device__ inline double2 curand_normal2_double(State* s) { return cass::rand::box_muller_pair_double(s); }   \
  __device__ inline float2 curand_log_normal2(State* s, float mean, float stddev) {                             \
    const float2 v = cass::rand::box_muller_pair(s);                                                            \
    return float2{std::exp(mean + stddev * v.x), std::exp(mean + stddev * v.y)};                                \
  }                                                                                                             \
  __device__ inline double2 curand_log_normal2_double(State* s, double mean, double stddev) {                   \
    const double2 v = cass::rand::box_muller_pair_double(s);                                                    \
    return double2{std::exp(mean + stddev * v.x), std::exp(mean + stddev * v.y)};                               \
  }
CASS_CURAND_NORMALS(curandStateXORWOW_t)
CASS_CURAND_NORMALS(curandStatePhilox4_32_10_t)
CASS_CURAND_NORMALS(curandStateMRG32k3a_t)
#undef CASS_CURAND_NORMALS

__device__ inline float4 curand_normal4(curandStatePhilox4_32_10_t* state) {
  const uint4 x = curand4(state);
  const float2 a = cass::rand::box_muller(x.x, x.y);
  const float2 b = cass::rand::box_muller(x.z, x.w);
  return float4{a.x, a.y, b.x, b.y};
}
__device__ inline float4 curand_log_normal4(curandStatePhilox4_32_10_t* state, float mean, float stddev) {
  const float4 v = curand_normal4(state);
  return float4{std::exp(mean + stddev * v.x), std::exp(mean + stddev * v.y), std::exp(mean + stddev * v.z),
                std::exp(mean + stddev * v.w)};
}
