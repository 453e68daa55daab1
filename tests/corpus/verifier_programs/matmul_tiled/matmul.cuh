#pragma once
#include <cuda_runtime.h>

// TILE comes from the build (compile_commands.json: -DTILE=16); the kernel's shared tiles and the
// launch both depend on it.
#ifndef TILE
#error "build with -DTILE=<tile width>, e.g. -DTILE=16"
#endif

void matmul_gpu(const float* A, const float* B, float* C, int M, int N, int K);
