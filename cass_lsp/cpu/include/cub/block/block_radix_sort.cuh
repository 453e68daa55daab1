// CPU runtime replacement for <cub/block/block_radix_sort.cuh> (all of the runtime's CUB: cass_cpu/cub.hpp).
#pragma once
#include <cass_cpu/cub.hpp>
