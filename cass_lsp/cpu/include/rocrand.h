// CPU runtime replacement for the older <rocrand.h> spelling of <rocrand/rocrand.h>.
#pragma once
#include <rocrand/rocrand.h>
