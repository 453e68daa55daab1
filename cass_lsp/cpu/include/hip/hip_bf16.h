// CPU runtime replacement for <hip/hip_bf16.h>: HIP's __hip_bfloat16 is CUDA's __nv_bfloat16 here,
// with the same functions (__float2bfloat16, __hadd, ...), so both sides run one implementation.
#pragma once
// the real header's include guard: code tests it to learn what was included
#define _HIP_INCLUDE_HIP_HIP_BF16_H_
#include <cass_cpu/hip_api.hpp>
#include <cass_cpu/bf16.hpp>
typedef __nv_bfloat16 __hip_bfloat16;
typedef __nv_bfloat162 __hip_bfloat162;
typedef __nv_bfloat16_raw __hip_bfloat16_raw;
typedef __nv_bfloat162_raw __hip_bfloat162_raw;
