// CPU runtime replacement for <rocrand/rocrand.h>: rocRAND's host API on cuRAND's implementation.
#pragma once
#define ROCRAND_H_
#include <cass_cpu/rocrand.hpp>
