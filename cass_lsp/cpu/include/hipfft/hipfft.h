// CPU runtime replacement for <hipfft/hipfft.h>: hipFFT's names on the cuFFT implementation
// (cass_cpu/fft.hpp), so an original and its translation run the same FFT.
#pragma once
#include <cass_cpu/hip_api.hpp>
// the real header includes it: its complex types are HIP's
#include <hip/hip_complex.h>
#include <cass_cpu/hipfft.hpp>
