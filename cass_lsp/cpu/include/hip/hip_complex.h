// CPU runtime replacement for <hip/hip_complex.h>: HIP's complex names on cuComplex.h's
// (cass_cpu/complex.hpp; the renames are generated into cass_cpu/hip_names.hpp).
#pragma once
// the real header's include guard: code tests it to learn what was included
#define HIP_INCLUDE_HIP_HIP_COMPLEX_H
#include <cass_cpu/hip_api.hpp>
#include <cass_cpu/complex.hpp>

// (the generator maps names that begin with hip; these begin with make_)
#define make_hipFloatComplex make_cuFloatComplex
#define make_hipDoubleComplex make_cuDoubleComplex
#define make_hipComplex make_cuComplex
