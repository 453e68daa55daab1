// HIP on NVIDIA: cooperative groups are CUDA's.
#pragma once
#include <hip/hip_runtime.h>
#include <cooperative_groups.h>
