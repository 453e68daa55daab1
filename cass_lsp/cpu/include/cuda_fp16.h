// CPU runtime replacement for <cuda_fp16.h>.
#pragma once
// the real header's include guards: code tests them to learn what was included (helper_cuda.h)
#define __CUDA_FP16_H__
#include <cass_cpu/runtime.hpp>
#include <cass_cpu/half.hpp>
