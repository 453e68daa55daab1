// The whole CPU runtime for CUDA/HIP programs: include this (cuda_runtime.h and hip/hip_runtime.h do).
// __half is not part of it: as with CUDA and HIP, cuda_fp16.h / hip/hip_fp16.h bring it in.
#pragma once
#include <cstdio>
#include <cstdlib>

#include "config.hpp"
#include "types.hpp"
#include "math.hpp"
#include "sched.hpp"
#include "coop.hpp"
#include "device.hpp"
#include "ptx.hpp"
#include "api.hpp"
#include "graph.hpp"
