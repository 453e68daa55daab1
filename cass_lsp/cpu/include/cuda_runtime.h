// CPU runtime replacement for <cuda_runtime.h>.
#pragma once
// the real header's include guards: code tests them to learn what was included (helper_cuda.h)
#define __CUDA_RUNTIME_H__
#define __CUDA_RUNTIME_API_H__
#define __DRIVER_TYPES_H__
#include <cass_cpu/runtime.hpp>
