// CPU runtime replacement for <hipfft.h> (ROCm before 5.7 installed it at the top level).
#pragma once
#include <hipfft/hipfft.h>
