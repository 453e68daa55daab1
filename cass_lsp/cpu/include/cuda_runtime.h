// CPU runtime replacement for <cuda_runtime.h>.
#pragma once
#include <cass_cpu/runtime.hpp>
