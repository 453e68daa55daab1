// The whole CPU runtime for CUDA/HIP programs: include this (cuda_runtime.h and hip/hip_runtime.h do).
#pragma once
#include <cstdio>
#include <cstdlib>

#include "config.hpp"
#include "types.hpp"
#include "math.hpp"
#include "sched.hpp"
#include "device.hpp"
#include "half.hpp"
#include "api.hpp"
