// CPU runtime replacement for <device_launch_parameters.h>.
#pragma once
#include <cass_cpu/runtime.hpp>
