// CPU runtime replacement for <hiprand/hiprand_kernel.h>: hipRAND's device API on cuRAND's implementation.
#pragma once
#define HIPRAND_KERNEL_H_
#include <cass_cpu/hiprand.hpp>
