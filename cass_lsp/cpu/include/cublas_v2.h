// CPU runtime replacement for <cublas_v2.h>: cuBLAS through OpenBLAS (see cass_cpu/blas.hpp).
#pragma once
// the real header's include guards: code tests them to learn what was included (helper_cuda.h)
#define CUBLAS_V2_H_
#define CUBLAS_API_H_
#include <cass_cpu/blas.hpp>
