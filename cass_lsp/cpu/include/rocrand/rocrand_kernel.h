// CPU runtime replacement for <rocrand/rocrand_kernel.h>: rocRAND's device API on cuRAND's implementation.
#pragma once
#define ROCRAND_KERNEL_H_
#include <cass_cpu/rocrand.hpp>
