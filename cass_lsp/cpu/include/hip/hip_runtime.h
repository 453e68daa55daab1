// CPU runtime replacement for <hip/hip_runtime.h>.
#pragma once
#include <cass_cpu/hip_api.hpp>
