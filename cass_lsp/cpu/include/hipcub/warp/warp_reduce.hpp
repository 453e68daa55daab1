// CPU runtime replacement for <hipcub/warp/warp_reduce.hpp>: hipcub:: is the runtime's CUB (cass_cpu/cub.hpp).
#pragma once
#include <cass_cpu/cub.hpp>
namespace hipcub = cub;
