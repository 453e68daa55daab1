// CPU runtime replacement for <hip/hip_fp16.h>.
#pragma once
// the real header's include guards: code tests them to learn what was included (helper_cuda.h)
#define HIP_INCLUDE_HIP_HIP_FP16_H
#include <cass_cpu/hip_api.hpp>
#include <cass_cpu/half.hpp>
