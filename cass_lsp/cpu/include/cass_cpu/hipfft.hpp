// hipFFT on the CPU runtime: its names mapped onto the cuFFT implementation (fft.hpp).
#pragma once
#include "fft.hpp"

// The plain renames (hipfftExecR2C -> cufftExecR2C, HIPFFT_FORWARD -> CUFFT_FORWARD, ...) of every
// cuFFT name fft.hpp defines, generated from the API tables by cass_lsp/cpu/hip_names.py.
#include "hipfft_names.hpp"
