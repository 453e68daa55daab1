// CPU runtime replacement for <cuda_profiler_api.h>.
#pragma once
#include <cass_cpu/runtime.hpp>
