// CPU runtime replacement for the older <rocrand_kernel.h> spelling of <rocrand/rocrand_kernel.h>.
#pragma once
#include <rocrand/rocrand_kernel.h>
