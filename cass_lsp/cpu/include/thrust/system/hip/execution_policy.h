// rocThrust's thrust::hip::par on the CPU runtime: the same policy as thrust::cuda::par
// (cass_cpu/thrust_policy.hpp).
#pragma once
#include <thrust/execution_policy.h>
