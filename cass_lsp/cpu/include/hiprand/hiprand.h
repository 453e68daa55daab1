// CPU runtime replacement for <hiprand/hiprand.h>: hipRAND's host API on cuRAND's implementation.
#pragma once
#define HIPRAND_H_
#include <cass_cpu/hiprand.hpp>
