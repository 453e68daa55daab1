// CPU runtime replacement for <cuda_bf16.h>.
#pragma once
// the real header's include guards: code tests them to learn what was included
#define __CUDA_BF16_H__
#include <cass_cpu/runtime.hpp>
#include <cass_cpu/bf16.hpp>
