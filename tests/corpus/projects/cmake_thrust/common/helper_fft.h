// Plans for the suite's spectral samples; a program that includes this links cuFFT.
#pragma once
#include <cufft.h>

#include "helper_errors.h"

inline cufftHandle plan_real_1d(int n, int batch) {
  cufftHandle plan;
  CHECK(cufftPlan1d(&plan, n, CUFFT_R2C, batch));
  return plan;
}
