#include <cstdio>
#include <cstdlib>

#include <curand.h>
#include <thrust/device_vector.h>
#include <thrust/extrema.h>
#include <thrust/functional.h>
#include <thrust/reduce.h>
#include <thrust/transform_reduce.h>

#include <helper_errors.h>

#include "stats.cuh"

#define CURAND_CHECK(call)                                                  \
  do {                                                                      \
    curandStatus_t status_ = (call);                                        \
    if (status_ != CURAND_STATUS_SUCCESS) {                                 \
      std::fprintf(stderr, "%s:%d: curand error %d\n", __FILE__, __LINE__, \
                   static_cast<int>(status_));                              \
      std::exit(1);                                                         \
    }                                                                       \
  } while (0)

struct SquaredDeviation {
  double mean;
  __host__ __device__ double operator()(float x) const {
    double d = static_cast<double>(x) - mean;
    return d * d;
  }
};

Summary summarise_uniform(std::size_t n, unsigned long long seed) {
  thrust::device_vector<float> samples(n);
  curandGenerator_t generator;
  CURAND_CHECK(curandCreateGenerator(&generator, CURAND_RNG_PSEUDO_DEFAULT));
  CURAND_CHECK(curandSetPseudoRandomGeneratorSeed(generator, seed));
  CURAND_CHECK(curandGenerateUniform(generator, thrust::raw_pointer_cast(samples.data()), n));
  CURAND_CHECK(curandDestroyGenerator(generator));
  CHECK(cudaDeviceSynchronize());

  double sum = thrust::reduce(samples.begin(), samples.end(), 0.0, thrust::plus<double>());
  Summary s{};
  s.mean = sum / static_cast<double>(n);
  s.variance = thrust::transform_reduce(samples.begin(), samples.end(), SquaredDeviation{s.mean}, 0.0,
                                        thrust::plus<double>()) / static_cast<double>(n);
  auto extremes = thrust::minmax_element(samples.begin(), samples.end());
  s.min = *extremes.first;
  s.max = *extremes.second;
  return s;
}
