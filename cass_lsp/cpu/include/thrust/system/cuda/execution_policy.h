// thrust::cuda::par on the CPU runtime (cass_cpu/thrust_policy.hpp); CCCL's own header would bring in
// the CUDA backend, which needs nvcc.
#pragma once
#include <thrust/execution_policy.h>
