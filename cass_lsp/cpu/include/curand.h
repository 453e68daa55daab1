// CPU runtime replacement for <curand.h>: cuRAND's host API (cass_cpu/curand_host.hpp).
#pragma once
#define CURAND_H_  // the real header's guard: code tests it to learn what was included
#include <cass_cpu/curand_host.hpp>
