// cuRAND's host API (<curand.h>) on the CPU runtime: generators whose numbers come from the device
// API's algorithms (cass_cpu/curand.hpp), interleaved as this runtime reads cuRAND's legacy ordering
// (not checked against a GPU): result n of XORWOW and MRG32k3a is draw n / 4096 of subsequence
// n % 4096; Philox4x32-10's come four at a time, block b = n / 4 being block b / 4096 of subsequence
// b % 4096. Device memory is
// host memory here, so a device generator and a host generator (curandCreateGeneratorHost) are the
// same thing. Generation is synchronous; a stream set on a generator orders nothing.
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <new>
#include <vector>

#include "curand.hpp"

enum curandStatus {
  CURAND_STATUS_SUCCESS = 0,
  CURAND_STATUS_VERSION_MISMATCH = 100,
  CURAND_STATUS_NOT_INITIALIZED = 101,
  CURAND_STATUS_ALLOCATION_FAILED = 102,
  CURAND_STATUS_TYPE_ERROR = 103,
  CURAND_STATUS_OUT_OF_RANGE = 104,
  CURAND_STATUS_LENGTH_NOT_MULTIPLE = 105,
  CURAND_STATUS_DOUBLE_PRECISION_REQUIRED = 106,
  CURAND_STATUS_LAUNCH_FAILURE = 201,
  CURAND_STATUS_PREEXISTING_FAILURE = 202,
  CURAND_STATUS_INITIALIZATION_FAILED = 203,
  CURAND_STATUS_ARCH_MISMATCH = 204,
  CURAND_STATUS_INTERNAL_ERROR = 999
};
typedef enum curandStatus curandStatus_t;

// only the generators this runtime has: a program naming another is refused before it is built
enum curandRngType {
  CURAND_RNG_PSEUDO_DEFAULT = 100,
  CURAND_RNG_PSEUDO_XORWOW = 101,
  CURAND_RNG_PSEUDO_MRG32K3A = 121,
  CURAND_RNG_PSEUDO_PHILOX4_32_10 = 161
};
typedef enum curandRngType curandRngType_t;

namespace cass::rand {
enum class Engine { xorwow, mrg32k3a, philox };
constexpr unsigned long long kLegacyThreads = 4096;

class Generator {
 public:
  explicit Generator(Engine engine) : engine_(engine) {}

  void set_seed(unsigned long long seed) { seed_ = seed; restart(); }
  void set_offset(unsigned long long offset) { offset_ = offset; restart(); }
  void set_stream(cudaStream_t stream) { stream_ = stream; }
  Engine engine() const { return engine_; }

  // the next 32 random bits (XORWOW, Philox) or MRG32k3a's next draw in (0, m1]
  unsigned int next_bits() {
    const unsigned long long n = offset_ + taken_++;
    if (engine_ == Engine::philox) return philox_bits(n);
    if (engine_ == Engine::mrg32k3a) return static_cast<unsigned int>(next_mrg_at(n) * kMrgBitsNorm);
    return curand(&xorwow_at(n));
  }
  double next_mrg() { return next_mrg_at(offset_ + taken_++); }

 private:
  void restart() {
    taken_ = 0;
    xorwow_.clear();
    mrg_.clear();
    block_ = ~0ull;
  }

  // the first draw of subsequence s not before result `start`
  static unsigned long long first_draw(unsigned long long start, unsigned long long s) {
    return start / kLegacyThreads + (s < start % kLegacyThreads ? 1 : 0);
  }

  curandStateXORWOW_t& xorwow_at(unsigned long long n) {
    if (xorwow_.empty()) {
      xorwow_.resize(kLegacyThreads);
      for (unsigned long long s = 0; s < kLegacyThreads; ++s) curand_init(seed_, s, first_draw(offset_, s), &xorwow_[s]);
    }
    return xorwow_[n % kLegacyThreads];
  }

  double next_mrg_at(unsigned long long n) {
    if (mrg_.empty()) {
      mrg_.resize(kLegacyThreads);
      for (unsigned long long s = 0; s < kLegacyThreads; ++s) curand_init(seed_, s, first_draw(offset_, s), &mrg_[s]);
    }
    return mrg_draw(&mrg_[n % kLegacyThreads]);
  }

  unsigned int philox_bits(unsigned long long n) {
    const unsigned long long block = n / 4;
    if (block != block_) {
      const unsigned long long subsequence = block % kLegacyThreads, index = block / kLegacyThreads;
      const uint4 counter{static_cast<unsigned int>(index), static_cast<unsigned int>(index >> 32),
                          static_cast<unsigned int>(subsequence), static_cast<unsigned int>(subsequence >> 32)};
      values_ = philox4x32_10(counter, uint2{static_cast<unsigned int>(seed_), static_cast<unsigned int>(seed_ >> 32)});
      block_ = block;
    }
    switch (n % 4) {
      case 1: return values_.y;
      case 2: return values_.z;
      case 3: return values_.w;
      default: return values_.x;
    }
  }

  Engine engine_;
  unsigned long long seed_ = 0, offset_ = 0, taken_ = 0;
  cudaStream_t stream_ = nullptr;
  std::vector<curandStateXORWOW_t> xorwow_;
  std::vector<curandStateMRG32k3a_t> mrg_;
  unsigned long long block_ = ~0ull;
  uint4 values_{};
};

inline float next_uniform(Generator& g) {
  if (g.engine() == Engine::mrg32k3a) return static_cast<float>(g.next_mrg() * kMrgNorm);
  return uniform(g.next_bits());
}
inline double next_uniform_double(Generator& g) {
  if (g.engine() == Engine::mrg32k3a) return g.next_mrg() * kMrgNorm;
  const unsigned int x = g.next_bits();
  return uniform_double_hq(x, g.next_bits());
}
inline float2 next_normal_pair(Generator& g) {
  if (g.engine() == Engine::mrg32k3a) {
    const float x = next_uniform(g);
    const float y = next_uniform(g) * k2Pi;
    const float s = std::sqrt(-2.0f * std::log(x));
    return float2{std::sin(y) * s, std::cos(y) * s};
  }
  const unsigned int x = g.next_bits();
  return box_muller(x, g.next_bits());
}
inline double2 next_normal_pair_double(Generator& g) {
  if (g.engine() == Engine::mrg32k3a) {
    const double x = next_uniform_double(g);
    const double y = next_uniform_double(g) * 2.0;
    const double s = std::sqrt(-2.0 * std::log(x));
    return double2{std::sin(y * kPiDouble) * s, std::cos(y * kPiDouble) * s};
  }
  const unsigned int x0 = g.next_bits(), x1 = g.next_bits(), y0 = g.next_bits(), y1 = g.next_bits();
  return box_muller_double(x0, x1, y0, y1);
}

// Normals come in Box-Muller pairs: cuRAND asks for an even count.
template <typename T, typename Pair, typename Map>
inline curandStatus_t normals(Generator* g, T* out, size_t n, Pair pair, Map map) {
  if (g == nullptr) return CURAND_STATUS_NOT_INITIALIZED;
  if (n % 2 != 0) return CURAND_STATUS_LENGTH_NOT_MULTIPLE;
  for (size_t i = 0; i < n; i += 2) {
    const auto v = pair(*g);
    out[i] = map(v.x);
    out[i + 1] = map(v.y);
  }
  return CURAND_STATUS_SUCCESS;
}

}  // namespace cass::rand

struct curandGenerator_st : cass::rand::Generator {
  using Generator::Generator;
};
typedef struct curandGenerator_st* curandGenerator_t;

namespace cass::rand {
inline curandStatus_t create(curandGenerator_t* out, curandRngType_t type) {
  if (out == nullptr) return CURAND_STATUS_NOT_INITIALIZED;
  switch (type) {
    case CURAND_RNG_PSEUDO_DEFAULT:
    case CURAND_RNG_PSEUDO_XORWOW: *out = new curandGenerator_st(Engine::xorwow); break;
    case CURAND_RNG_PSEUDO_MRG32K3A: *out = new curandGenerator_st(Engine::mrg32k3a); break;
    case CURAND_RNG_PSEUDO_PHILOX4_32_10: *out = new curandGenerator_st(Engine::philox); break;
    default: return CURAND_STATUS_TYPE_ERROR;
  }
  return CURAND_STATUS_SUCCESS;
}
}  // namespace cass::rand

inline curandStatus_t curandCreateGenerator(curandGenerator_t* generator, curandRngType_t type) {
  return cass::rand::create(generator, type);
}
inline curandStatus_t curandCreateGeneratorHost(curandGenerator_t* generator, curandRngType_t type) {
  return cass::rand::create(generator, type);
}
inline curandStatus_t curandDestroyGenerator(curandGenerator_t generator) {
  if (generator == nullptr) return CURAND_STATUS_NOT_INITIALIZED;
  delete generator;
  return CURAND_STATUS_SUCCESS;
}
inline curandStatus_t curandSetPseudoRandomGeneratorSeed(curandGenerator_t generator, unsigned long long seed) {
  if (generator == nullptr) return CURAND_STATUS_NOT_INITIALIZED;
  generator->set_seed(seed);
  return CURAND_STATUS_SUCCESS;
}
inline curandStatus_t curandSetGeneratorOffset(curandGenerator_t generator, unsigned long long offset) {
  if (generator == nullptr) return CURAND_STATUS_NOT_INITIALIZED;
  generator->set_offset(offset);
  return CURAND_STATUS_SUCCESS;
}
inline curandStatus_t curandSetStream(curandGenerator_t generator, cudaStream_t stream) {
  if (generator == nullptr) return CURAND_STATUS_NOT_INITIALIZED;
  generator->set_stream(stream);
  return CURAND_STATUS_SUCCESS;
}
inline curandStatus_t curandGenerate(curandGenerator_t generator, unsigned int* out, size_t n) {
  if (generator == nullptr) return CURAND_STATUS_NOT_INITIALIZED;
  for (size_t i = 0; i < n; ++i) out[i] = generator->next_bits();
  return CURAND_STATUS_SUCCESS;
}
inline curandStatus_t curandGenerateUniform(curandGenerator_t generator, float* out, size_t n) {
  if (generator == nullptr) return CURAND_STATUS_NOT_INITIALIZED;
  for (size_t i = 0; i < n; ++i) out[i] = cass::rand::next_uniform(*generator);
  return CURAND_STATUS_SUCCESS;
}
inline curandStatus_t curandGenerateUniformDouble(curandGenerator_t generator, double* out, size_t n) {
  if (generator == nullptr) return CURAND_STATUS_NOT_INITIALIZED;
  for (size_t i = 0; i < n; ++i) out[i] = cass::rand::next_uniform_double(*generator);
  return CURAND_STATUS_SUCCESS;
}
inline curandStatus_t curandGenerateNormal(curandGenerator_t generator, float* out, size_t n, float mean, float stddev) {
  return cass::rand::normals(generator, out, n, cass::rand::next_normal_pair,
                             [=](float v) { return mean + stddev * v; });
}
inline curandStatus_t curandGenerateNormalDouble(curandGenerator_t generator, double* out, size_t n, double mean,
                                                 double stddev) {
  return cass::rand::normals(generator, out, n, cass::rand::next_normal_pair_double,
                             [=](double v) { return mean + stddev * v; });
}
inline curandStatus_t curandGenerateLogNormal(curandGenerator_t generator, float* out, size_t n, float mean,
                                              float stddev) {
  return cass::rand::normals(generator, out, n, cass::rand::next_normal_pair,
                             [=](float v) { return std::exp(mean + stddev * v); });
}
inline curandStatus_t curandGenerateLogNormalDouble(curandGenerator_t generator, double* out, size_t n, double mean,
                                                    double stddev) {
  return cass::rand::normals(generator, out, n, cass::rand::next_normal_pair_double,
                             [=](double v) { return std::exp(mean + stddev * v); });
}
inline curandStatus_t curandGetVersion(int* version) {
  if (version == nullptr) return CURAND_STATUS_OUT_OF_RANGE;
  *version = 10405;  // the cuRAND of CUDA 13 whose algorithms these are
  return CURAND_STATUS_SUCCESS;
}
