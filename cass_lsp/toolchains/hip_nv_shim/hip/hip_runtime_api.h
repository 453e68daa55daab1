// HIP on NVIDIA: the runtime API header is the runtime header here.
#pragma once
#include <hip/hip_runtime.h>
