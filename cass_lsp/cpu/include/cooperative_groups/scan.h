// CPU runtime replacement for <cooperative_groups/scan.h> (cass_cpu/cg_reduce.hpp).
#pragma once
#include <cass_cpu/cg_reduce.hpp>
