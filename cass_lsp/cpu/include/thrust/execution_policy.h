// Thrust's policies, and the CUDA/HIP backend's par / par_nosync that the CPU runtime maps onto its
// device system (cass_cpu/thrust_policy.hpp).
#pragma once
#include_next <thrust/execution_policy.h>
#include "cass_cpu/thrust_policy.hpp"
