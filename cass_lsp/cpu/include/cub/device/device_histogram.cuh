// CPU runtime replacement for <cub/device/device_histogram.cuh> (all of the runtime's CUB: cass_cpu/cub.hpp).
#pragma once
#include <cass_cpu/cub.hpp>
