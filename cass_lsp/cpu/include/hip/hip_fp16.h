// CPU runtime replacement for <hip/hip_fp16.h>.
#pragma once
#include <cass_cpu/hip_api.hpp>
#include <cass_cpu/half.hpp>
