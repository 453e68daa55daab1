// CPU runtime replacement for <cub/warp/warp_scan.cuh> (all of the runtime's CUB: cass_cpu/cub.hpp).
#pragma once
#include <cass_cpu/cub.hpp>
