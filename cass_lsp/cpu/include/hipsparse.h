// CPU runtime replacement for <hipsparse.h> (ROCm before 5.2 spelled it without the folder).
#pragma once
#include <hipsparse/hipsparse.h>
