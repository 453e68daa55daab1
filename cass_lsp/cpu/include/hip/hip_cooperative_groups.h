// CPU runtime replacement for <hip/hip_cooperative_groups.h> (cass_cpu/cg.hpp).
#pragma once
#include <cass_cpu/cg.hpp>
