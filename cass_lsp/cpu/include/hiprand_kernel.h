// CPU runtime replacement for the older <hiprand_kernel.h> spelling of <hiprand/hiprand_kernel.h>.
#pragma once
#include <hiprand/hiprand_kernel.h>
