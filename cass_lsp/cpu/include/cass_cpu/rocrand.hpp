// rocRAND's names (what `cass-lsp translate --roc` writes) on the CPU runtime's cuRAND, as
// cass_cpu/hiprand.hpp does for hipRAND's, so a CUDA original and its rocRAND port draw the same
// numbers here. (On an AMD GPU rocRAND's generators draw other numbers for the same seed: see
// docs/verification.md.)
#pragma once
#include "hip_api.hpp"
#include "curand_host.hpp"

typedef curandStateXORWOW_t rocrand_state_xorwow;
typedef curandStatePhilox4_32_10_t rocrand_state_philox4x32_10;
typedef curandStateMRG32k3a_t rocrand_state_mrg32k3a;
namespace rocrand_device {  // rocRAND's engine classes, which its state names alias
typedef curandStateXORWOW_t xorwow_engine;
typedef curandStatePhilox4_32_10_t philox4x32_10_engine;
typedef curandStateMRG32k3a_t mrg32k3a_engine;
}  // namespace rocrand_device

template <typename State>
__device__ inline void rocrand_init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                                    State* state) {
  curand_init(seed, subsequence, offset, state);
}

#define CASS_ROCRAND_FORWARD(roc_name, cuda_name)                                                       \
  template <typename State, typename... Args>                                                           \
  __device__ inline auto roc_name(State* state, Args... args) -> decltype(cuda_name(state, args...)) { \
    return cuda_name(state, args...);                                                                   \
  }
CASS_ROCRAND_FORWARD(rocrand, curand)
CASS_ROCRAND_FORWARD(rocrand4, curand4)
CASS_ROCRAND_FORWARD(rocrand_uniform, curand_uniform)
CASS_ROCRAND_FORWARD(rocrand_uniform_double, curand_uniform_double)
CASS_ROCRAND_FORWARD(rocrand_uniform4, curand_uniform4)
CASS_ROCRAND_FORWARD(rocrand_uniform_double2, curand_uniform2_double)
CASS_ROCRAND_FORWARD(rocrand_normal, curand_normal)
CASS_ROCRAND_FORWARD(rocrand_normal2, curand_normal2)
CASS_ROCRAND_FORWARD(rocrand_normal4, curand_normal4)
CASS_ROCRAND_FORWARD(rocrand_normal_double, curand_normal_double)
CASS_ROCRAND_FORWARD(rocrand_normal_double2, curand_normal2_double)
CASS_ROCRAND_FORWARD(rocrand_log_normal, curand_log_normal)
CASS_ROCRAND_FORWARD(rocrand_log_normal2, curand_log_normal2)
CASS_ROCRAND_FORWARD(rocrand_log_normal4, curand_log_normal4)
CASS_ROCRAND_FORWARD(rocrand_log_normal_double, curand_log_normal_double)
CASS_ROCRAND_FORWARD(rocrand_log_normal_double2, curand_log_normal2_double)
#undef CASS_ROCRAND_FORWARD

// host API: rocRAND's own status and generator numbers
typedef enum rocrand_status {
  ROCRAND_STATUS_SUCCESS = 0,
  ROCRAND_STATUS_VERSION_MISMATCH = 100,
  ROCRAND_STATUS_NOT_CREATED = 101,
  ROCRAND_STATUS_ALLOCATION_FAILED = 102,
  ROCRAND_STATUS_TYPE_ERROR = 103,
  ROCRAND_STATUS_OUT_OF_RANGE = 104,
  ROCRAND_STATUS_LENGTH_NOT_MULTIPLE = 105,
  ROCRAND_STATUS_DOUBLE_PRECISION_REQUIRED = 106,
  ROCRAND_STATUS_LAUNCH_FAILURE = 107,
  ROCRAND_STATUS_INTERNAL_ERROR = 108
} rocrand_status;

typedef enum rocrand_rng_type {
  ROCRAND_RNG_PSEUDO_DEFAULT = 400,
  ROCRAND_RNG_PSEUDO_XORWOW = 401,
  ROCRAND_RNG_PSEUDO_MRG32K3A = 402,
  ROCRAND_RNG_PSEUDO_PHILOX4_32_10 = 404
} rocrand_rng_type;

typedef curandGenerator_st rocrand_generator_base_type;
typedef curandGenerator_t rocrand_generator;

namespace cass::rand {
inline rocrand_status roc_status(curandStatus_t status) {
  switch (status) {
    case CURAND_STATUS_SUCCESS: return ROCRAND_STATUS_SUCCESS;
    case CURAND_STATUS_NOT_INITIALIZED: return ROCRAND_STATUS_NOT_CREATED;
    case CURAND_STATUS_TYPE_ERROR: return ROCRAND_STATUS_TYPE_ERROR;
    case CURAND_STATUS_OUT_OF_RANGE: return ROCRAND_STATUS_OUT_OF_RANGE;
    case CURAND_STATUS_LENGTH_NOT_MULTIPLE: return ROCRAND_STATUS_LENGTH_NOT_MULTIPLE;
    default: return ROCRAND_STATUS_INTERNAL_ERROR;
  }
}

inline curandRngType_t cuda_type(rocrand_rng_type type) {
  switch (type) {
    case ROCRAND_RNG_PSEUDO_XORWOW: return CURAND_RNG_PSEUDO_XORWOW;
    case ROCRAND_RNG_PSEUDO_MRG32K3A: return CURAND_RNG_PSEUDO_MRG32K3A;
    case ROCRAND_RNG_PSEUDO_PHILOX4_32_10: return CURAND_RNG_PSEUDO_PHILOX4_32_10;
    case ROCRAND_RNG_PSEUDO_DEFAULT: return CURAND_RNG_PSEUDO_DEFAULT;
  }
  return static_cast<curandRngType_t>(-1);  // not a generator: create answers TYPE_ERROR
}
}  // namespace cass::rand

inline rocrand_status rocrand_create_generator(rocrand_generator* generator, rocrand_rng_type type) {
  return cass::rand::roc_status(curandCreateGenerator(generator, cass::rand::cuda_type(type)));
}
// generation is synchronous here, so a host generator blocks as rocRAND's _host_blocking does
inline rocrand_status rocrand_create_generator_host_blocking(rocrand_generator* generator, rocrand_rng_type type) {
  return cass::rand::roc_status(curandCreateGeneratorHost(generator, cass::rand::cuda_type(type)));
}
inline rocrand_status rocrand_destroy_generator(rocrand_generator generator) {
  return cass::rand::roc_status(curandDestroyGenerator(generator));
}
inline rocrand_status rocrand_set_seed(rocrand_generator generator, unsigned long long seed) {
  return cass::rand::roc_status(curandSetPseudoRandomGeneratorSeed(generator, seed));
}
inline rocrand_status rocrand_set_offset(rocrand_generator generator, unsigned long long offset) {
  return cass::rand::roc_status(curandSetGeneratorOffset(generator, offset));
}
inline rocrand_status rocrand_set_stream(rocrand_generator generator, hipStream_t stream) {
  return cass::rand::roc_status(curandSetStream(generator, stream));
}
inline rocrand_status rocrand_generate(rocrand_generator generator, unsigned int* out, size_t n) {
  return cass::rand::roc_status(curandGenerate(generator, out, n));
}
inline rocrand_status rocrand_generate_uniform(rocrand_generator generator, float* out, size_t n) {
  return cass::rand::roc_status(curandGenerateUniform(generator, out, n));
}
inline rocrand_status rocrand_generate_uniform_double(rocrand_generator generator, double* out, size_t n) {
  return cass::rand::roc_status(curandGenerateUniformDouble(generator, out, n));
}
inline rocrand_status rocrand_generate_normal(rocrand_generator generator, float* out, size_t n, float mean, float stddev) {
  return cass::rand::roc_status(curandGenerateNormal(generator, out, n, mean, stddev));
}
inline rocrand_status rocrand_generate_normal_double(rocrand_generator generator, double* out, size_t n, double mean,
                                                     double stddev) {
  return cass::rand::roc_status(curandGenerateNormalDouble(generator, out, n, mean, stddev));
}
inline rocrand_status rocrand_generate_log_normal(rocrand_generator generator, float* out, size_t n, float mean,
                                                  float stddev) {
  return cass::rand::roc_status(curandGenerateLogNormal(generator, out, n, mean, stddev));
}
inline rocrand_status rocrand_generate_log_normal_double(rocrand_generator generator, double* out, size_t n,
                                                         double mean, double stddev) {
  return cass::rand::roc_status(curandGenerateLogNormalDouble(generator, out, n, mean, stddev));
}
inline rocrand_status rocrand_get_version(unsigned int* version) {
  int cuda = 0;
  const rocrand_status status = cass::rand::roc_status(curandGetVersion(version ? &cuda : nullptr));
  if (version != nullptr) *version = static_cast<unsigned int>(cuda);
  return status;
}
