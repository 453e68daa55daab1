// CPU runtime replacement for <cub/util_type.cuh> (all of the runtime's CUB: cass_cpu/cub.hpp).
#pragma once
#include <cass_cpu/cub.hpp>
