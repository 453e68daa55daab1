// CPU runtime replacement for <cuComplex.h> (see cass_cpu/complex.hpp).
#pragma once
// the real header's include guard: code tests it to learn what was included
#define CU_COMPLEX_H_
#include <cass_cpu/complex.hpp>
