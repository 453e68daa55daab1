// CPU runtime replacement for <hip/hip_runtime.h>.
#pragma once
// the real header's include guards: code tests them to learn what was included (helper_cuda.h)
#define HIP_INCLUDE_HIP_HIP_RUNTIME_H
#define HIP_INCLUDE_HIP_HIP_RUNTIME_API_H
#define HIP_INCLUDE_HIP_DRIVER_TYPES_H
#include <cass_cpu/hip_api.hpp>
