// CUB and hipCUB on the CPU runtime (what cub/*.cuh and hipcub/*.hpp bring in): see cub/util.hpp.
#pragma once
#include "cub/util.hpp"
#include "cub/device.hpp"
#include "cub/block.hpp"
#include "cub/warp.hpp"
