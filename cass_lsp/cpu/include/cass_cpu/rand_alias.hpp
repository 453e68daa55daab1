// hipRAND's and rocRAND's names on the CPU runtime's cuRAND (cass_cpu/hiprand.hpp, rocrand.hpp): each
// row below is one cuRAND function and its name in both libraries, so the two stay the same set.
// (On an AMD GPU both libraries run rocRAND's generators, which draw other numbers for the same seed:
// see docs/verification.md.)
#pragma once
#include "hip_api.hpp"
#include "curand_host.hpp"

// X(hipRAND name, rocRAND name, cuRAND name): the device functions, for every state cuRAND has.
#define CASS_RAND_DEVICE_FUNCTIONS(X)                                          \
  X(hiprand, rocrand, curand)                                                  \
  X(hiprand4, rocrand4, curand4)                                               \
  X(hiprand_uniform, rocrand_uniform, curand_uniform)                          \
  X(hiprand_uniform_double, rocrand_uniform_double, curand_uniform_double)     \
  X(hiprand_uniform4, rocrand_uniform4, curand_uniform4)                       \
  X(hiprand_uniform2_double, rocrand_uniform_double2, curand_uniform2_double)  \
  X(hiprand_normal, rocrand_normal, curand_normal)                             \
  X(hiprand_normal2, rocrand_normal2, curand_normal2)                          \
  X(hiprand_normal4, rocrand_normal4, curand_normal4)                          \
  X(hiprand_normal_double, rocrand_normal_double, curand_normal_double)        \
  X(hiprand_normal2_double, rocrand_normal_double2, curand_normal2_double)     \
  X(hiprand_log_normal, rocrand_log_normal, curand_log_normal)                 \
  X(hiprand_log_normal2, rocrand_log_normal2, curand_log_normal2)              \
  X(hiprand_log_normal4, rocrand_log_normal4, curand_log_normal4)              \
  X(hiprand_log_normal_double, rocrand_log_normal_double, curand_log_normal_double) \
  X(hiprand_log_normal2_double, rocrand_log_normal_double2, curand_log_normal2_double)

// X(hipRAND name, rocRAND name, cuRAND name, parameters, arguments): the host calls whose only
// difference from cuRAND's is the status type they answer.
#define CASS_RAND_HOST_CALLS(X)                                                                                  \
  X(hiprandDestroyGenerator, rocrand_destroy_generator, curandDestroyGenerator, (curandGenerator_t generator),   \
    (generator))                                                                                                 \
  X(hiprandSetPseudoRandomGeneratorSeed, rocrand_set_seed, curandSetPseudoRandomGeneratorSeed,                   \
    (curandGenerator_t generator, unsigned long long seed), (generator, seed))                                   \
  X(hiprandSetGeneratorOffset, rocrand_set_offset, curandSetGeneratorOffset,                                     \
    (curandGenerator_t generator, unsigned long long offset), (generator, offset))                               \
  X(hiprandSetStream, rocrand_set_stream, curandSetStream, (curandGenerator_t generator, hipStream_t stream),     \
    (generator, stream))                                                                                         \
  X(hiprandGenerate, rocrand_generate, curandGenerate, (curandGenerator_t generator, unsigned int* out, size_t n), \
    (generator, out, n))                                                                                         \
  X(hiprandGenerateUniform, rocrand_generate_uniform, curandGenerateUniform,                                     \
    (curandGenerator_t generator, float* out, size_t n), (generator, out, n))                                    \
  X(hiprandGenerateUniformDouble, rocrand_generate_uniform_double, curandGenerateUniformDouble,                  \
    (curandGenerator_t generator, double* out, size_t n), (generator, out, n))                                   \
  X(hiprandGenerateNormal, rocrand_generate_normal, curandGenerateNormal,                                        \
    (curandGenerator_t generator, float* out, size_t n, float mean, float stddev), (generator, out, n, mean, stddev)) \
  X(hiprandGenerateNormalDouble, rocrand_generate_normal_double, curandGenerateNormalDouble,                     \
    (curandGenerator_t generator, double* out, size_t n, double mean, double stddev),                           \
    (generator, out, n, mean, stddev))                                                                           \
  X(hiprandGenerateLogNormal, rocrand_generate_log_normal, curandGenerateLogNormal,                              \
    (curandGenerator_t generator, float* out, size_t n, float mean, float stddev), (generator, out, n, mean, stddev)) \
  X(hiprandGenerateLogNormalDouble, rocrand_generate_log_normal_double, curandGenerateLogNormalDouble,           \
    (curandGenerator_t generator, double* out, size_t n, double mean, double stddev),                           \
    (generator, out, n, mean, stddev))

// A device function under another library's name: one template forwarding to cuRAND's overloads.
#define CASS_RAND_FORWARD(name, cuda_name)                                                           \
  template <typename State, typename... Args>                                                        \
  __device__ inline auto name(State* state, Args... args) -> decltype(cuda_name(state, args...)) { \
    return cuda_name(state, args...);                                                                \
  }

// curand_init under another library's name.
#define CASS_RAND_INIT(name)                                                                            \
  template <typename State>                                                                           \
  __device__ inline void name(unsigned long long seed, unsigned long long subsequence, unsigned long long offset, \
                              State* state) {                                                         \
    curand_init(seed, subsequence, offset, state);                                                    \
  }

// A generator type under another library's numbers (hipRAND's and rocRAND's differ for Philox).
#define CASS_RAND_CUDA_TYPE(RngType, PREFIX)                                                \
  inline curandRngType_t cuda_type(RngType type) {                                          \
    switch (type) {                                                                          \
      case PREFIX##_RNG_PSEUDO_XORWOW: return CURAND_RNG_PSEUDO_XORWOW;                      \
      case PREFIX##_RNG_PSEUDO_MRG32K3A: return CURAND_RNG_PSEUDO_MRG32K3A;                  \
      case PREFIX##_RNG_PSEUDO_PHILOX4_32_10: return CURAND_RNG_PSEUDO_PHILOX4_32_10;        \
      case PREFIX##_RNG_PSEUDO_DEFAULT: return CURAND_RNG_PSEUDO_DEFAULT;                    \
    }                                                                                        \
    return static_cast<curandRngType_t>(-1); /* not a generator: create answers TYPE_ERROR */ \
  }
