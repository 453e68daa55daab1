// The whole CPU runtime for CUDA/HIP programs: include this (cuda_runtime.h and hip/hip_runtime.h do).
// __half is not part of it: as with CUDA and HIP, cuda_fp16.h / hip/hip_fp16.h bring it in.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <climits>  // nvcc's headers bring INT_MAX and friends to every unit; real code relies on it

#include "config.hpp"
#include "types.hpp"
#include "math.hpp"
#include "sched.hpp"
#include "coop.hpp"
#include "device.hpp"
#include "ptx.hpp"
#include "api.hpp"
#include "tex.hpp"
#include "graph.hpp"
