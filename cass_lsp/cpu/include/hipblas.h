// CPU runtime replacement for <hipblas.h> (ROCm before 5.7 installed it at the top level).
#pragma once
#include <hipblas/hipblas.h>
