// CPU runtime replacement for <hipfft/hipfft.h>: hipFFT's names on the cuFFT implementation
// (cass_cpu/fft.hpp), so an original and its translation run the same FFT.
#pragma once
#include <cass_cpu/hip_api.hpp>
#include <cass_cpu/hipfft.hpp>
