// CPU runtime replacement for <cufft.h>: cuFFT in the runtime's own headers (see cass_cpu/fft.hpp).
#pragma once
// the real header's include guard: code tests it to learn what was included (helper_cuda.h)
#define _CUFFT_H_
#include <cass_cpu/fft.hpp>
