// How CCCL's Thrust is configured for the CPU runtime (g++, not nvcc).
//
// - The device system is Thrust's own C++ system (THRUST_DEVICE_SYSTEM_CPP): its algorithms are
//   sequential, so a device_vector is host memory the runtime's kernels and cudaMemcpy can touch,
//   and a floating-point reduce adds in the same order in every run and on both sides of a pair
//   (the OpenMP system would not: its partial sums depend on the thread count).
// - The CUDA side defines __CUDACC__ (programs test it to select their GPU code), and CCCL reads it
//   once, in <cuda/std/__cccl/compiler.h>, to decide whether it is compiled by a CUDA compiler
//   (_CCCL_CUDA_COMPILATION); when it thinks so it checks nvcc's version against the toolkit and
//   includes PTX wrappers and NVIDIA's __half intrinsics. That header is read here with __CUDACC__
//   hidden, so CCCL compiles as the host C++ library it also is, and the program keeps its macro.
// - CCCL's __half/__nv_bfloat16 support needs NVIDIA's cuda_fp16.h; the runtime's own half type
//   is not it, so the extended floating-point types are off.
#pragma once
#undef THRUST_DEVICE_SYSTEM
#define THRUST_DEVICE_SYSTEM THRUST_DEVICE_SYSTEM_CPP
#ifndef CCCL_DISABLE_FP16_SUPPORT
#define CCCL_DISABLE_FP16_SUPPORT
#endif
#ifndef CCCL_DISABLE_BF16_SUPPORT
#define CCCL_DISABLE_BF16_SUPPORT
#endif
#pragma push_macro("__CUDACC__")
#undef __CUDACC__
#include <cuda/std/__cccl/compiler.h>
#pragma pop_macro("__CUDACC__")
