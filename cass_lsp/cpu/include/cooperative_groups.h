// CPU runtime replacement for <cooperative_groups.h> (cass_cpu/cg.hpp).
#pragma once
#include <cass_cpu/cg.hpp>
