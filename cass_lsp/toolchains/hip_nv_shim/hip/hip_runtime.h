// HIP on NVIDIA for cass-lsp: maps the HIP runtime names a ported program commonly uses onto CUDA,
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

// ---- error codes --------------------------------------------------------------------------------
#define hipSuccess cudaSuccess
#define hipErrorInvalidValue cudaErrorInvalidValue
#define hipErrorOutOfMemory cudaErrorMemoryAllocation
#define hipErrorMemoryAllocation cudaErrorMemoryAllocation
#define hipErrorNotInitialized cudaErrorInitializationError
#define hipErrorInvalidDevice cudaErrorInvalidDevice
#define hipErrorInvalidDevicePointer cudaErrorInvalidDevicePointer
#define hipErrorInvalidConfiguration cudaErrorInvalidConfiguration
#define hipErrorLaunchFailure cudaErrorLaunchFailure
#define hipErrorNotReady cudaErrorNotReady
#define hipErrorNoDevice cudaErrorNoDevice
#define hipErrorInvalidResourceHandle cudaErrorInvalidResourceHandle
#define hipErrorPeerAccessAlreadyEnabled cudaErrorPeerAccessAlreadyEnabled
#define hipErrorUnknown cudaErrorUnknown

// ---- enums and flags ----------------------------------------------------------------------------
#define hipMemcpyHostToHost cudaMemcpyHostToHost
#define hipMemcpyHostToDevice cudaMemcpyHostToDevice
#define hipMemcpyDeviceToHost cudaMemcpyDeviceToHost
#define hipMemcpyDeviceToDevice cudaMemcpyDeviceToDevice
#define hipMemcpyDefault cudaMemcpyDefault
#define hipStreamDefault cudaStreamDefault
#define hipStreamNonBlocking cudaStreamNonBlocking
#define hipEventDefault cudaEventDefault
#define hipEventBlockingSync cudaEventBlockingSync
#define hipEventDisableTiming cudaEventDisableTiming
#define hipHostMallocDefault cudaHostAllocDefault
#define hipHostMallocPortable cudaHostAllocPortable
#define hipHostMallocMapped cudaHostAllocMapped
#define hipHostMallocWriteCombined cudaHostAllocWriteCombined
#define hipHostRegisterDefault cudaHostRegisterDefault
#define hipHostRegisterMapped cudaHostRegisterMapped
#define hipMemAttachGlobal cudaMemAttachGlobal
#define hipMemAttachHost cudaMemAttachHost
#define hipDeviceScheduleAuto cudaDeviceScheduleAuto
#define hipDeviceScheduleSpin cudaDeviceScheduleSpin
#define hipDeviceScheduleYield cudaDeviceScheduleYield
#define hipDeviceScheduleBlockingSync cudaDeviceScheduleBlockingSync
#define hipDeviceMapHost cudaDeviceMapHost
#define hipFuncCachePreferNone cudaFuncCachePreferNone
#define hipFuncCachePreferShared cudaFuncCachePreferShared
#define hipFuncCachePreferL1 cudaFuncCachePreferL1
#define hipFuncCachePreferEqual cudaFuncCachePreferEqual
#define hipStreamCaptureModeGlobal cudaStreamCaptureModeGlobal
#define hipStreamCaptureModeThreadLocal cudaStreamCaptureModeThreadLocal
#define hipStreamCaptureModeRelaxed cudaStreamCaptureModeRelaxed
#define hipMemAdviseSetReadMostly cudaMemAdviseSetReadMostly
#define hipMemAdviseSetPreferredLocation cudaMemAdviseSetPreferredLocation
#define hipMemAdviseSetAccessedBy cudaMemAdviseSetAccessedBy
#define hipDeviceAttributeMaxThreadsPerBlock cudaDevAttrMaxThreadsPerBlock
#define hipDeviceAttributeMaxBlockDimX cudaDevAttrMaxBlockDimX
#define hipDeviceAttributeMaxGridDimX cudaDevAttrMaxGridDimX
#define hipDeviceAttributeMaxSharedMemoryPerBlock cudaDevAttrMaxSharedMemoryPerBlock
#define hipDeviceAttributeWarpSize cudaDevAttrWarpSize
#define hipDeviceAttributeMultiprocessorCount cudaDevAttrMultiProcessorCount
#define hipDeviceAttributeClockRate cudaDevAttrClockRate
#define hipDeviceAttributeComputeCapabilityMajor cudaDevAttrComputeCapabilityMajor
#define hipDeviceAttributeComputeCapabilityMinor cudaDevAttrComputeCapabilityMinor
#define hipDeviceAttributeMaxThreadsPerMultiProcessor cudaDevAttrMaxThreadsPerMultiProcessor
#define hipDeviceAttributeManagedMemory cudaDevAttrManagedMemory

// ---- errors, devices ----------------------------------------------------------------------------
#define hipGetLastError cudaGetLastError
#define hipPeekAtLastError cudaPeekAtLastError
#define hipGetErrorString cudaGetErrorString
#define hipGetErrorName cudaGetErrorName
#define hipInit(flags) cudaFree(0)
#define hipDriverGetVersion cudaDriverGetVersion
#define hipRuntimeGetVersion cudaRuntimeGetVersion
#define hipSetDevice cudaSetDevice
#define hipGetDevice cudaGetDevice
#define hipGetDeviceCount cudaGetDeviceCount
#define hipGetDeviceProperties cudaGetDeviceProperties
#define hipDeviceGetAttribute cudaDeviceGetAttribute
#define hipDeviceSynchronize cudaDeviceSynchronize
#define hipDeviceReset cudaDeviceReset
#define hipSetDeviceFlags cudaSetDeviceFlags
#define hipDeviceSetCacheConfig cudaDeviceSetCacheConfig
#define hipDeviceCanAccessPeer cudaDeviceCanAccessPeer
#define hipDeviceEnablePeerAccess cudaDeviceEnablePeerAccess
#define hipDeviceDisablePeerAccess cudaDeviceDisablePeerAccess

// ---- memory -------------------------------------------------------------------------------------
#define hipMalloc cudaMalloc
#define hipMallocManaged cudaMallocManaged
#define hipMallocPitch cudaMallocPitch
#define hipMallocAsync cudaMallocAsync
#define hipFree cudaFree
#define hipFreeAsync cudaFreeAsync
#define hipHostMalloc cudaHostAlloc
#define hipMallocHost cudaMallocHost
#define hipHostAlloc cudaHostAlloc
#define hipHostFree cudaFreeHost
#define hipFreeHost cudaFreeHost
#define hipHostRegister cudaHostRegister
#define hipHostUnregister cudaHostUnregister
#define hipHostGetDevicePointer cudaHostGetDevicePointer
#define hipMemcpy cudaMemcpy
#define hipMemcpyAsync cudaMemcpyAsync
#define hipMemcpy2D cudaMemcpy2D
#define hipMemcpy2DAsync cudaMemcpy2DAsync
#define hipMemcpyPeer cudaMemcpyPeer
#define hipMemcpyPeerAsync cudaMemcpyPeerAsync
#define hipMemcpyHtoD(dst, src, bytes) cudaMemcpy((void*)(dst), (src), (bytes), cudaMemcpyHostToDevice)
#define hipMemcpyDtoH(dst, src, bytes) cudaMemcpy((dst), (const void*)(src), (bytes), cudaMemcpyDeviceToHost)
#define hipMemcpyDtoD(dst, src, bytes) \
  cudaMemcpy((void*)(dst), (const void*)(src), (bytes), cudaMemcpyDeviceToDevice)
#define hipMemcpyToSymbol cudaMemcpyToSymbol
#define hipMemcpyFromSymbol cudaMemcpyFromSymbol
#define hipMemcpyToSymbolAsync cudaMemcpyToSymbolAsync
#define hipMemcpyFromSymbolAsync cudaMemcpyFromSymbolAsync
#define hipGetSymbolAddress cudaGetSymbolAddress
#define hipGetSymbolSize cudaGetSymbolSize
#define hipMemset cudaMemset
#define hipMemsetAsync cudaMemsetAsync
#define hipMemset2D cudaMemset2D
#define hipMemGetInfo cudaMemGetInfo
#define hipMemPrefetchAsync cudaMemPrefetchAsync
#define hipMemAdvise cudaMemAdvise
#define hipPointerGetAttributes cudaPointerGetAttributes
#define hipIpcGetMemHandle cudaIpcGetMemHandle
#define hipIpcOpenMemHandle cudaIpcOpenMemHandle
#define hipIpcCloseMemHandle cudaIpcCloseMemHandle
#define HIP_SYMBOL(symbol) symbol

// ---- streams, events, graphs --------------------------------------------------------------------
#define hipStreamCreate cudaStreamCreate
#define hipStreamCreateWithFlags cudaStreamCreateWithFlags
#define hipStreamCreateWithPriority cudaStreamCreateWithPriority
#define hipStreamDestroy cudaStreamDestroy
#define hipStreamSynchronize cudaStreamSynchronize
#define hipStreamQuery cudaStreamQuery
#define hipStreamWaitEvent cudaStreamWaitEvent
#define hipStreamBeginCapture cudaStreamBeginCapture
#define hipStreamEndCapture cudaStreamEndCapture
#define hipDeviceGetStreamPriorityRange cudaDeviceGetStreamPriorityRange
#define hipEventCreate cudaEventCreate
#define hipEventCreateWithFlags cudaEventCreateWithFlags
#define hipEventRecord cudaEventRecord
#define hipEventSynchronize cudaEventSynchronize
#define hipEventQuery cudaEventQuery
#define hipEventElapsedTime cudaEventElapsedTime
#define hipEventDestroy cudaEventDestroy
#define hipGraphCreate cudaGraphCreate
#define hipGraphInstantiate cudaGraphInstantiate
#define hipGraphLaunch cudaGraphLaunch
#define hipGraphExecDestroy cudaGraphExecDestroy
#define hipGraphDestroy cudaGraphDestroy

// ---- kernels ------------------------------------------------------------------------------------
#define hipFuncGetAttributes cudaFuncGetAttributes
#define hipFuncSetAttribute cudaFuncSetAttribute
#define hipFuncSetCacheConfig cudaFuncSetCacheConfig
#define hipFuncAttributeMaxDynamicSharedMemorySize cudaFuncAttributeMaxDynamicSharedMemorySize
#define hipOccupancyMaxActiveBlocksPerMultiprocessor cudaOccupancyMaxActiveBlocksPerMultiprocessor
#define hipOccupancyMaxPotentialBlockSize cudaOccupancyMaxPotentialBlockSize
#define hipLaunchKernel cudaLaunchKernel
#define hipLaunchCooperativeKernel cudaLaunchCooperativeKernel
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
