// Thrust on the CPU runtime: every Thrust header includes this one first, so it is where CCCL's
// configuration is fixed before the real <thrust/detail/config.h> (from the nvidia-cuda-cccl wheel,
// later on the include path) is read. See cass_cpu/thrust_config.hpp for why.
#pragma once
#include "cass_cpu/thrust_config.hpp"
#include_next <thrust/detail/config.h>
