// CPU runtime replacement for <hipblas/hipblas.h>: hipBLAS's names on the cuBLAS implementation
// (cass_cpu/blas.hpp), so an original and its translation run the same BLAS.
#pragma once
#include <cass_cpu/hip_api.hpp>
// the real header includes it: its complex types are HIP's
#include <hip/hip_complex.h>
#include <cass_cpu/hipblas.hpp>
