// rocRAND's names (what `cass-lsp translate --roc` writes) on the CPU runtime's cuRAND, as
// cass_cpu/hiprand.hpp does for hipRAND's, so a CUDA original and its rocRAND port draw the same
// numbers here; the functions that only forward are the rows of cass_cpu/rand_alias.hpp.
#pragma once
#include "rand_alias.hpp"

typedef curandStateXORWOW_t rocrand_state_xorwow;
typedef curandStatePhilox4_32_10_t rocrand_state_philox4x32_10;
typedef curandStateMRG32k3a_t rocrand_state_mrg32k3a;
namespace rocrand_device {  // rocRAND's engine classes, which its state names alias
typedef curandStateXORWOW_t xorwow_engine;
typedef curandStatePhilox4_32_10_t philox4x32_10_engine;
typedef curandStateMRG32k3a_t mrg32k3a_engine;
}  // namespace rocrand_device

CASS_RAND_INIT(rocrand_init)

#define CASS_ROCRAND_DEVICE(hip_name, roc_name, cuda_name) CASS_RAND_FORWARD(roc_name, cuda_name)
CASS_RAND_DEVICE_FUNCTIONS(CASS_ROCRAND_DEVICE)
#undef CASS_ROCRAND_DEVICE

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

CASS_RAND_CUDA_TYPE(rocrand_rng_type, ROCRAND)
}  // namespace cass::rand

inline rocrand_status rocrand_create_generator(rocrand_generator* generator, rocrand_rng_type type) {
  return cass::rand::roc_status(curandCreateGenerator(generator, cass::rand::cuda_type(type)));
}
// generation is synchronous here, so a host generator blocks as rocRAND's _host_blocking does
inline rocrand_status rocrand_create_generator_host_blocking(rocrand_generator* generator, rocrand_rng_type type) {
  return cass::rand::roc_status(curandCreateGeneratorHost(generator, cass::rand::cuda_type(type)));
}
#define CASS_ROCRAND_HOST(hip_name, roc_name, cuda_name, parameters, arguments) \
  inline rocrand_status roc_name parameters { return cass::rand::roc_status(cuda_name arguments); }
CASS_RAND_HOST_CALLS(CASS_ROCRAND_HOST)
#undef CASS_ROCRAND_HOST
inline rocrand_status rocrand_get_version(unsigned int* version) {
  int cuda = 0;
  const rocrand_status status = cass::rand::roc_status(curandGetVersion(version ? &cuda : nullptr));
  if (version != nullptr) *version = static_cast<unsigned int>(cuda);
  return status;
}
