// CPU runtime replacement for <cuda_fp16.h>.
#pragma once
#include <cass_cpu/runtime.hpp>
#include <cass_cpu/half.hpp>
