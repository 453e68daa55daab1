// HIP on NVIDIA: half precision is CUDA's.
#pragma once
#include <cuda_fp16.h>
