// hipRAND's names on the CPU runtime's cuRAND (cass_cpu/curand.hpp, curand_host.hpp), the way
// hipRAND's NVIDIA backend maps them, so a CUDA original and its HIP translation draw the same
// numbers. (On an AMD GPU hipRAND runs rocRAND, whose generators draw other numbers for the same
// seed: see docs/verification.md.)
#pragma once
#include "hip_api.hpp"
#include "curand_host.hpp"

typedef curandStateXORWOW_t hiprandStateXORWOW_t;
typedef curandStateXORWOW_t hiprandStateXORWOW;
typedef curandStateXORWOW_t hiprandState_t;
typedef curandStateXORWOW_t hiprandState;
typedef curandStatePhilox4_32_10_t hiprandStatePhilox4_32_10_t;
typedef curandStatePhilox4_32_10_t hiprandStatePhilox4_32_10;
typedef curandStateMRG32k3a_t hiprandStateMRG32k3a_t;
typedef curandStateMRG32k3a_t hiprandStateMRG32k3a;

template <typename State>
__device__ inline void hiprand_init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                                    State* state) {
  curand_init(seed, subsequence, offset, state);
}

// one forwarding template per device function: hipRAND's name, cuRAND's overloads
#define CASS_HIPRAND_FORWARD(hip_name, cuda_name)                                             \
  template <typename State, typename... Args>                                                 \
  __device__ inline auto hip_name(State* state, Args... args) -> decltype(cuda_name(state, args...)) { \
    return cuda_name(state, args...);                                                         \
  }
CASS_HIPRAND_FORWARD(hiprand, curand)
CASS_HIPRAND_FORWARD(hiprand4, curand4)
CASS_HIPRAND_FORWARD(hiprand_uniform, curand_uniform)
CASS_HIPRAND_FORWARD(hiprand_uniform_double, curand_uniform_double)
CASS_HIPRAND_FORWARD(hiprand_uniform4, curand_uniform4)
CASS_HIPRAND_FORWARD(hiprand_uniform2_double, curand_uniform2_double)
CASS_HIPRAND_FORWARD(hiprand_normal, curand_normal)
CASS_HIPRAND_FORWARD(hiprand_normal2, curand_normal2)
CASS_HIPRAND_FORWARD(hiprand_normal4, curand_normal4)
CASS_HIPRAND_FORWARD(hiprand_normal_double, curand_normal_double)
CASS_HIPRAND_FORWARD(hiprand_normal2_double, curand_normal2_double)
CASS_HIPRAND_FORWARD(hiprand_log_normal, curand_log_normal)
CASS_HIPRAND_FORWARD(hiprand_log_normal2, curand_log_normal2)
CASS_HIPRAND_FORWARD(hiprand_log_normal4, curand_log_normal4)
CASS_HIPRAND_FORWARD(hiprand_log_normal_double, curand_log_normal_double)
CASS_HIPRAND_FORWARD(hiprand_log_normal2_double, curand_log_normal2_double)
#undef CASS_HIPRAND_FORWARD

// host API: hipRAND's own status and generator numbers
typedef enum hiprandStatus {
  HIPRAND_STATUS_SUCCESS = 0,
  HIPRAND_STATUS_VERSION_MISMATCH = 100,
  HIPRAND_STATUS_NOT_INITIALIZED = 101,
  HIPRAND_STATUS_ALLOCATION_FAILED = 102,
  HIPRAND_STATUS_TYPE_ERROR = 103,
  HIPRAND_STATUS_OUT_OF_RANGE = 104,
  HIPRAND_STATUS_LENGTH_NOT_MULTIPLE = 105,
  HIPRAND_STATUS_DOUBLE_PRECISION_REQUIRED = 106,
  HIPRAND_STATUS_LAUNCH_FAILURE = 201,
  HIPRAND_STATUS_PREEXISTING_FAILURE = 202,
  HIPRAND_STATUS_INITIALIZATION_FAILED = 203,
  HIPRAND_STATUS_ARCH_MISMATCH = 204,
  HIPRAND_STATUS_INTERNAL_ERROR = 999,
  HIPRAND_STATUS_NOT_IMPLEMENTED = 1000
} hiprandStatus_t;

typedef enum hiprandRngType {
  HIPRAND_RNG_PSEUDO_DEFAULT = 400,
  HIPRAND_RNG_PSEUDO_XORWOW = 401,
  HIPRAND_RNG_PSEUDO_MRG32K3A = 402,
  HIPRAND_RNG_PSEUDO_PHILOX4_32_10 = 405
} hiprandRngType_t;

typedef curandGenerator_st hiprandGenerator_st;
typedef curandGenerator_t hiprandGenerator_t;

namespace cass::rand {
inline hiprandStatus_t hip_status(curandStatus_t status) { return static_cast<hiprandStatus_t>(status); }

inline curandRngType_t cuda_type(hiprandRngType_t type) {
  switch (type) {
    case HIPRAND_RNG_PSEUDO_XORWOW: return CURAND_RNG_PSEUDO_XORWOW;
    case HIPRAND_RNG_PSEUDO_MRG32K3A: return CURAND_RNG_PSEUDO_MRG32K3A;
    case HIPRAND_RNG_PSEUDO_PHILOX4_32_10: return CURAND_RNG_PSEUDO_PHILOX4_32_10;
    case HIPRAND_RNG_PSEUDO_DEFAULT: return CURAND_RNG_PSEUDO_DEFAULT;
  }
  return static_cast<curandRngType_t>(-1);  // not a generator: create answers TYPE_ERROR
}
}  // namespace cass::rand

inline hiprandStatus_t hiprandCreateGenerator(hiprandGenerator_t* generator, hiprandRngType_t type) {
  return cass::rand::hip_status(curandCreateGenerator(generator, cass::rand::cuda_type(type)));
}
inline hiprandStatus_t hiprandCreateGeneratorHost(hiprandGenerator_t* generator, hiprandRngType_t type) {
  return cass::rand::hip_status(curandCreateGeneratorHost(generator, cass::rand::cuda_type(type)));
}
inline hiprandStatus_t hiprandDestroyGenerator(hiprandGenerator_t generator) {
  return cass::rand::hip_status(curandDestroyGenerator(generator));
}
inline hiprandStatus_t hiprandSetPseudoRandomGeneratorSeed(hiprandGenerator_t generator, unsigned long long seed) {
  return cass::rand::hip_status(curandSetPseudoRandomGeneratorSeed(generator, seed));
}
inline hiprandStatus_t hiprandSetGeneratorOffset(hiprandGenerator_t generator, unsigned long long offset) {
  return cass::rand::hip_status(curandSetGeneratorOffset(generator, offset));
}
inline hiprandStatus_t hiprandSetStream(hiprandGenerator_t generator, hipStream_t stream) {
  return cass::rand::hip_status(curandSetStream(generator, stream));
}
inline hiprandStatus_t hiprandGenerate(hiprandGenerator_t generator, unsigned int* out, size_t n) {
  return cass::rand::hip_status(curandGenerate(generator, out, n));
}
inline hiprandStatus_t hiprandGenerateUniform(hiprandGenerator_t generator, float* out, size_t n) {
  return cass::rand::hip_status(curandGenerateUniform(generator, out, n));
}
inline hiprandStatus_t hiprandGenerateUniformDouble(hiprandGenerator_t generator, double* out, size_t n) {
  return cass::rand::hip_status(curandGenerateUniformDouble(generator, out, n));
}
inline hiprandStatus_t hiprandGenerateNormal(hiprandGenerator_t generator, float* out, size_t n, float mean, float stddev) {
  return cass::rand::hip_status(curandGenerateNormal(generator, out, n, mean, stddev));
}
inline hiprandStatus_t hiprandGenerateNormalDouble(hiprandGenerator_t generator, double* out, size_t n, double mean,
                                                   double stddev) {
  return cass::rand::hip_status(curandGenerateNormalDouble(generator, out, n, mean, stddev));
}
inline hiprandStatus_t hiprandGenerateLogNormal(hiprandGenerator_t generator, float* out, size_t n, float mean,
                                                float stddev) {
  return cass::rand::hip_status(curandGenerateLogNormal(generator, out, n, mean, stddev));
}
inline hiprandStatus_t hiprandGenerateLogNormalDouble(hiprandGenerator_t generator, double* out, size_t n, double mean,
                                                      double stddev) {
  return cass::rand::hip_status(curandGenerateLogNormalDouble(generator, out, n, mean, stddev));
}
inline hiprandStatus_t hiprandGetVersion(int* version) { return cass::rand::hip_status(curandGetVersion(version)); }
