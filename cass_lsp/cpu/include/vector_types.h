// CPU runtime replacement for <vector_types.h>.
#pragma once
#include <cass_cpu/runtime.hpp>
