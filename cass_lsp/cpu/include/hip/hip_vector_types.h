// CPU runtime replacement for <hip/hip_vector_types.h>.
#pragma once
#include <cass_cpu/hip_api.hpp>
