// CPU runtime replacement for <cooperative_groups/scan.h> (cass_cpu/cg.hpp).
#pragma once
#include <cass_cpu/cg.hpp>
