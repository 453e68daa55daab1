// CPU runtime replacement for <library_types.h>: the data types the CUDA libraries name.
#pragma once
#define __LIBRARY_TYPES_H__
#include <cass_cpu/library_types.hpp>

// HIP's names of the same types (one implementation serves both sides of a pair).
typedef cudaDataType hipDataType;
#define HIP_R_16F CUDA_R_16F
#define HIP_C_16F CUDA_C_16F
#define HIP_R_32F CUDA_R_32F
#define HIP_C_32F CUDA_C_32F
#define HIP_R_64F CUDA_R_64F
#define HIP_C_64F CUDA_C_64F
#define HIP_R_8I CUDA_R_8I
#define HIP_R_32I CUDA_R_32I
