// hipRAND's names on the CPU runtime's cuRAND (cass_cpu/curand.hpp, curand_host.hpp), the way
// hipRAND's NVIDIA backend maps them, so a CUDA original and its HIP translation draw the same
// numbers; the functions that only forward are the rows of cass_cpu/rand_alias.hpp.
#pragma once
#include "rand_alias.hpp"

typedef curandStateXORWOW_t hiprandStateXORWOW_t;
typedef curandStateXORWOW_t hiprandStateXORWOW;
typedef curandStateXORWOW_t hiprandState_t;
typedef curandStateXORWOW_t hiprandState;
typedef curandStatePhilox4_32_10_t hiprandStatePhilox4_32_10_t;
typedef curandStatePhilox4_32_10_t hiprandStatePhilox4_32_10;
typedef curandStateMRG32k3a_t hiprandStateMRG32k3a_t;
typedef curandStateMRG32k3a_t hiprandStateMRG32k3a;

CASS_RAND_INIT(hiprand_init)

#define CASS_HIPRAND_DEVICE(hip_name, roc_name, cuda_name) CASS_RAND_FORWARD(hip_name, cuda_name)
CASS_RAND_DEVICE_FUNCTIONS(CASS_HIPRAND_DEVICE)
#undef CASS_HIPRAND_DEVICE

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

CASS_RAND_CUDA_TYPE(hiprandRngType_t, HIPRAND)
}  // namespace cass::rand

inline hiprandStatus_t hiprandCreateGenerator(hiprandGenerator_t* generator, hiprandRngType_t type) {
  return cass::rand::hip_status(curandCreateGenerator(generator, cass::rand::cuda_type(type)));
}
inline hiprandStatus_t hiprandCreateGeneratorHost(hiprandGenerator_t* generator, hiprandRngType_t type) {
  return cass::rand::hip_status(curandCreateGeneratorHost(generator, cass::rand::cuda_type(type)));
}
#define CASS_HIPRAND_HOST(hip_name, roc_name, cuda_name, parameters, arguments) \
  inline hiprandStatus_t hip_name parameters { return cass::rand::hip_status(cuda_name arguments); }
CASS_RAND_HOST_CALLS(CASS_HIPRAND_HOST)
#undef CASS_HIPRAND_HOST
inline hiprandStatus_t hiprandGetVersion(int* version) { return cass::rand::hip_status(curandGetVersion(version)); }
