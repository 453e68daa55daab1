// CPU runtime replacement for <cub/thread/thread_operators.cuh> (all of the runtime's CUB: cass_cpu/cub.hpp).
#pragma once
#include <cass_cpu/cub.hpp>
