// CPU runtime replacement for <device_functions.h>.
#pragma once
#include <cass_cpu/runtime.hpp>
