// CPU runtime replacement for the older <hiprand.h> spelling of <hiprand/hiprand.h>.
#pragma once
#include <hiprand/hiprand.h>
