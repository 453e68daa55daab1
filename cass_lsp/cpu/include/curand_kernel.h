// CPU runtime replacement for <curand_kernel.h>: cuRAND's device API (cass_cpu/curand.hpp); like the
// real header, it brings in the host API too.
#pragma once
#define CURAND_KERNEL_H_
#include <curand.h>
#include <cass_cpu/curand.hpp>
