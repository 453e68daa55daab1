// HIP on NVIDIA for cass-lsp: maps the HIP runtime names onto CUDA,
// so `nvcc -x cu -I<this dir's parent>` compiles a .hip file (for SASS listings and for running a
// translation next to its original). ROCm's own hip/nvidia_detail headers target CUDA 11 and fail
// with CUDA 13, hence this small header. Names are mapped, not re-implemented: semantics are CUDA's.
#pragma once

#include <cuda_runtime.h>

#ifndef __HIP_PLATFORM_NVIDIA__
#define __HIP_PLATFORM_NVIDIA__ 1
#endif
#ifndef __HIP_PLATFORM_NVCC__
#define __HIP_PLATFORM_NVCC__ 1
#endif

// The plain renames (hipMalloc -> cudaMalloc, hipDeviceAttributeWarpSize -> cudaDevAttrWarpSize, ...),
// generated from the API tables by cass_lsp/cpu/hip_names.py; what differs is written out below.
#include "hip_to_cuda_names.h"

// ---- types --------------------------------------------------------------------------------------
typedef cudaError_t hipError_t;
typedef cudaStream_t hipStream_t;
typedef cudaEvent_t hipEvent_t;
typedef cudaDeviceProp hipDeviceProp_t;
typedef cudaMemcpyKind hipMemcpyKind;
typedef cudaFuncAttributes hipFuncAttributes;
typedef cudaPointerAttributes hipPointerAttribute_t;
typedef cudaDeviceAttr hipDeviceAttribute_t;
typedef cudaFuncCache hipFuncCache_t;
typedef cudaSharedMemConfig hipSharedMemConfig;
typedef cudaGraph_t hipGraph_t;
typedef cudaGraphExec_t hipGraphExec_t;
typedef cudaStreamCaptureMode hipStreamCaptureMode;
typedef cudaMemoryAdvise hipMemoryAdvise;
typedef cudaIpcMemHandle_t hipIpcMemHandle_t;

// ---- errors, devices, memory ----------------------------------------------------------------------
#define hipErrorMemoryAllocation cudaErrorMemoryAllocation
#define hipErrorInvalidResourceHandle cudaErrorInvalidResourceHandle
#define hipInit(flags) cudaFree(0)
#define hipHostMalloc cudaHostAlloc
#define hipMallocHost cudaMallocHost
#define hipFreeHost cudaFreeHost
#define hipMemcpyHtoD(dst, src, bytes) cudaMemcpy((void*)(dst), (src), (bytes), cudaMemcpyHostToDevice)
#define hipMemcpyDtoH(dst, src, bytes) cudaMemcpy((dst), (const void*)(src), (bytes), cudaMemcpyDeviceToHost)
#define hipMemcpyDtoD(dst, src, bytes) \
  cudaMemcpy((void*)(dst), (const void*)(src), (bytes), cudaMemcpyDeviceToDevice)
#define HIP_SYMBOL(symbol) symbol

// ---- kernels ------------------------------------------------------------------------------------
#define hipLaunchKernelGGL(kernel, grid, block, shmem, stream, ...) \
  kernel<<<(grid), (block), (shmem), (stream)>>>(__VA_ARGS__)
#define HIP_KERNEL_NAME(...) __VA_ARGS__
#define HIP_DYNAMIC_SHARED(type, var) extern __shared__ type var[]

// ---- device side --------------------------------------------------------------------------------
#define hipThreadIdx_x threadIdx.x
#define hipThreadIdx_y threadIdx.y
#define hipThreadIdx_z threadIdx.z
#define hipBlockIdx_x blockIdx.x
#define hipBlockIdx_y blockIdx.y
#define hipBlockIdx_z blockIdx.z
#define hipBlockDim_x blockDim.x
#define hipBlockDim_y blockDim.y
#define hipBlockDim_z blockDim.z
#define hipGridDim_x gridDim.x
#define hipGridDim_y gridDim.y
#define hipGridDim_z gridDim.z

// HIP's mask-less warp operations act on the whole (32-wide) warp here. They are templates, not
// macros: CUDA's fp16/bf16 headers declare (deprecated, pre-sm_70) functions of the same names, and a
// function-like macro would rewrite those declarations.
template <typename T>
__device__ inline T __shfl(T var, int src_lane, int width = warpSize) {
  return __shfl_sync(0xffffffffu, var, src_lane, width);
}
template <typename T>
__device__ inline T __shfl_up(T var, unsigned int delta, int width = warpSize) {
  return __shfl_up_sync(0xffffffffu, var, delta, width);
}
template <typename T>
__device__ inline T __shfl_down(T var, unsigned int delta, int width = warpSize) {
  return __shfl_down_sync(0xffffffffu, var, delta, width);
}
template <typename T>
__device__ inline T __shfl_xor(T var, int lane_mask, int width = warpSize) {
  return __shfl_xor_sync(0xffffffffu, var, lane_mask, width);
}
// CUDA still declares pre-sm_70 __ballot/__any/__all (rejected by ptxas for sm_70+) with other
// return types, so HIP's names are redirected to the *_sync forms under their own names.
__device__ inline unsigned long long __hip_nv_ballot(int predicate) {
  return __ballot_sync(0xffffffffu, predicate);
}
__device__ inline int __hip_nv_any(int predicate) { return __any_sync(0xffffffffu, predicate); }
__device__ inline int __hip_nv_all(int predicate) { return __all_sync(0xffffffffu, predicate); }
#define __ballot __hip_nv_ballot
#define __any __hip_nv_any
#define __all __hip_nv_all
__device__ inline unsigned __lane_id() { return threadIdx.x & 31u; }

// HIP 7.x spells lane masks as 64-bit values; on a 32-wide warp only the low half means anything.
// Exact-match overloads take them without CUDA's truncation warning.
template <typename T>
__device__ inline T __shfl_sync(unsigned long long mask, T var, int src_lane, int width = warpSize) {
  return __shfl_sync(static_cast<unsigned>(mask), var, src_lane, width);
}
template <typename T>
__device__ inline T __shfl_up_sync(unsigned long long mask, T var, unsigned int delta, int width = warpSize) {
  return __shfl_up_sync(static_cast<unsigned>(mask), var, delta, width);
}
template <typename T>
__device__ inline T __shfl_down_sync(unsigned long long mask, T var, unsigned int delta, int width = warpSize) {
  return __shfl_down_sync(static_cast<unsigned>(mask), var, delta, width);
}
template <typename T>
__device__ inline T __shfl_xor_sync(unsigned long long mask, T var, int lane_mask, int width = warpSize) {
  return __shfl_xor_sync(static_cast<unsigned>(mask), var, lane_mask, width);
}
__device__ inline unsigned long long __ballot_sync(unsigned long long mask, int predicate) {
  return __ballot_sync(static_cast<unsigned>(mask), predicate);
}
__device__ inline int __any_sync(unsigned long long mask, int predicate) {
  return __any_sync(static_cast<unsigned>(mask), predicate);
}
__device__ inline int __all_sync(unsigned long long mask, int predicate) {
  return __all_sync(static_cast<unsigned>(mask), predicate);
}
__device__ inline void __syncwarp(unsigned long long mask) { __syncwarp(static_cast<unsigned>(mask)); }
