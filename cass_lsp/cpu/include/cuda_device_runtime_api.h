// CPU runtime replacement for <cuda_device_runtime_api.h>.
#pragma once
#include <cass_cpu/runtime.hpp>
