// HIP names mapped onto the CUDA-named implementation, so a CUDA original and its HIP translation
// run on the same runtime and differ only where their source differs.
#pragma once
#include "runtime.hpp"

typedef cudaError_t hipError_t;
typedef cudaStream_t hipStream_t;
typedef cudaEvent_t hipEvent_t;
typedef cudaDeviceProp hipDeviceProp_t;
typedef cudaMemcpyKind hipMemcpyKind;
typedef cudaDeviceAttr hipDeviceAttribute_t;
typedef cudaFuncAttributes hipFuncAttributes;
typedef cudaFuncCache hipFuncCache_t;
typedef cudaHostFn_t hipHostFn_t;
typedef void* hipDeviceptr_t;

#define hipSuccess cudaSuccess
#define hipErrorInvalidValue cudaErrorInvalidValue
#define hipErrorOutOfMemory cudaErrorMemoryAllocation
#define hipErrorMemoryAllocation cudaErrorMemoryAllocation
#define hipErrorNotInitialized cudaErrorInitializationError
#define hipErrorInvalidConfiguration cudaErrorInvalidConfiguration
#define hipErrorInvalidSymbol cudaErrorInvalidSymbol
#define hipErrorInvalidDevicePointer cudaErrorInvalidDevicePointer
#define hipErrorInvalidMemcpyDirection cudaErrorInvalidMemcpyDirection
#define hipErrorNoDevice cudaErrorNoDevice
#define hipErrorInvalidDevice cudaErrorInvalidDevice
#define hipErrorNotReady cudaErrorNotReady
#define hipErrorLaunchFailure cudaErrorLaunchFailure
#define hipErrorNotSupported cudaErrorNotSupported
#define hipErrorUnknown cudaErrorUnknown

#define hipMemcpyHostToHost cudaMemcpyHostToHost
#define hipMemcpyHostToDevice cudaMemcpyHostToDevice
#define hipMemcpyDeviceToHost cudaMemcpyDeviceToHost
#define hipMemcpyDeviceToDevice cudaMemcpyDeviceToDevice
#define hipMemcpyDefault cudaMemcpyDefault
#define hipStreamDefault cudaStreamDefault
#define hipStreamNonBlocking cudaStreamNonBlocking
#define hipStreamPerThread cudaStreamPerThread
#define hipEventDefault cudaEventDefault
#define hipEventBlockingSync cudaEventBlockingSync
#define hipEventDisableTiming cudaEventDisableTiming
#define hipHostMallocDefault 0x0
#define hipHostMallocPortable 0x1
#define hipHostMallocMapped 0x2
#define hipHostMallocWriteCombined 0x4
#define hipHostRegisterDefault 0x0
#define hipMemAttachGlobal cudaMemAttachGlobal
#define hipDeviceScheduleAuto cudaDeviceScheduleAuto
#define hipDeviceScheduleBlockingSync cudaDeviceScheduleBlockingSync
#define hipDeviceMapHost cudaDeviceMapHost
#define hipCpuDeviceId cudaCpuDeviceId

#define hipDeviceAttributeMaxThreadsPerBlock cudaDevAttrMaxThreadsPerBlock
#define hipDeviceAttributeMaxBlockDimX cudaDevAttrMaxBlockDimX
#define hipDeviceAttributeMaxBlockDimY cudaDevAttrMaxBlockDimY
#define hipDeviceAttributeMaxBlockDimZ cudaDevAttrMaxBlockDimZ
#define hipDeviceAttributeMaxGridDimX cudaDevAttrMaxGridDimX
#define hipDeviceAttributeMaxGridDimY cudaDevAttrMaxGridDimY
#define hipDeviceAttributeMaxGridDimZ cudaDevAttrMaxGridDimZ
#define hipDeviceAttributeMaxSharedMemoryPerBlock cudaDevAttrMaxSharedMemoryPerBlock
#define hipDeviceAttributeTotalConstantMemory cudaDevAttrTotalConstantMemory
#define hipDeviceAttributeWarpSize cudaDevAttrWarpSize
#define hipDeviceAttributeClockRate cudaDevAttrClockRate
#define hipDeviceAttributeMultiprocessorCount cudaDevAttrMultiProcessorCount
#define hipDeviceAttributeMaxThreadsPerMultiProcessor cudaDevAttrMaxThreadsPerMultiProcessor
#define hipDeviceAttributeComputeCapabilityMajor cudaDevAttrComputeCapabilityMajor
#define hipDeviceAttributeComputeCapabilityMinor cudaDevAttrComputeCapabilityMinor
#define hipDeviceAttributeMaxSharedMemoryPerMultiprocessor cudaDevAttrMaxSharedMemoryPerMultiprocessor
#define hipDeviceAttributeSharedMemPerBlockOptin cudaDevAttrMaxSharedMemoryPerBlockOptin
#define hipFuncAttributeMaxDynamicSharedMemorySize cudaFuncAttributeMaxDynamicSharedMemorySize
#define hipFuncAttributePreferredSharedMemoryCarveout cudaFuncAttributePreferredSharedMemoryCarveout
#define hipFuncCachePreferNone cudaFuncCachePreferNone
#define hipFuncCachePreferShared cudaFuncCachePreferShared
#define hipFuncCachePreferL1 cudaFuncCachePreferL1
#define hipFuncCachePreferEqual cudaFuncCachePreferEqual

#define hipGetLastError cudaGetLastError
#define hipPeekAtLastError cudaPeekAtLastError
#define hipGetErrorName cudaGetErrorName
#define hipGetErrorString cudaGetErrorString
#define hipGetDeviceCount cudaGetDeviceCount
#define hipGetDevice cudaGetDevice
#define hipSetDevice cudaSetDevice
#define hipSetDeviceFlags cudaSetDeviceFlags
#define hipDeviceSynchronize cudaDeviceSynchronize
#define hipDeviceReset cudaDeviceReset
#define hipDriverGetVersion cudaDriverGetVersion
#define hipRuntimeGetVersion cudaRuntimeGetVersion
#define hipGetDeviceProperties cudaGetDeviceProperties
#define hipDeviceGetAttribute cudaDeviceGetAttribute
#define hipDeviceSetCacheConfig cudaDeviceSetCacheConfig
#define hipDeviceSetLimit cudaDeviceSetLimit
#define hipFuncSetAttribute cudaFuncSetAttribute
#define hipFuncSetCacheConfig cudaFuncSetCacheConfig
#define hipFuncGetAttributes cudaFuncGetAttributes
#define hipOccupancyMaxActiveBlocksPerMultiprocessor cudaOccupancyMaxActiveBlocksPerMultiprocessor
#define hipOccupancyMaxPotentialBlockSize cudaOccupancyMaxPotentialBlockSize
#define hipMalloc cudaMalloc
#define hipMallocManaged cudaMallocManaged
#define hipMallocPitch cudaMallocPitch
#define hipFree cudaFree
#define hipHostFree cudaFreeHost
#define hipFreeHost cudaFreeHost
#define hipHostRegister cudaHostRegister
#define hipHostUnregister cudaHostUnregister
#define hipHostGetDevicePointer cudaHostGetDevicePointer
#define hipMemGetInfo cudaMemGetInfo
#define hipMemcpy cudaMemcpy
#define hipMemcpyAsync cudaMemcpyAsync
#define hipMemcpy2D cudaMemcpy2D
#define hipMemcpy2DAsync cudaMemcpy2DAsync
#define hipMemset cudaMemset
#define hipMemsetAsync cudaMemsetAsync
#define hipMemset2D cudaMemset2D
#define hipMemPrefetchAsync cudaMemPrefetchAsync
#define hipMemAdvise cudaMemAdvise
#define hipMemcpyToSymbol cudaMemcpyToSymbol
#define hipMemcpyToSymbolAsync cudaMemcpyToSymbolAsync
#define hipMemcpyFromSymbol cudaMemcpyFromSymbol
#define hipMemcpyFromSymbolAsync cudaMemcpyFromSymbolAsync
#define hipGetSymbolAddress cudaGetSymbolAddress
#define hipGetSymbolSize cudaGetSymbolSize
#define hipStreamCreate cudaStreamCreate
#define hipStreamCreateWithFlags cudaStreamCreateWithFlags
#define hipStreamCreateWithPriority cudaStreamCreateWithPriority
#define hipStreamDestroy cudaStreamDestroy
#define hipStreamSynchronize cudaStreamSynchronize
#define hipStreamQuery cudaStreamQuery
#define hipStreamWaitEvent cudaStreamWaitEvent
#define hipLaunchHostFunc cudaLaunchHostFunc
#define hipEventCreate cudaEventCreate
#define hipEventCreateWithFlags cudaEventCreateWithFlags
#define hipEventDestroy cudaEventDestroy
#define hipEventRecord cudaEventRecord
#define hipEventSynchronize cudaEventSynchronize
#define hipEventQuery cudaEventQuery
#define hipEventElapsedTime cudaEventElapsedTime
#define hipProfilerStart cudaProfilerStart
#define hipProfilerStop cudaProfilerStop
#define hipLaunchKernel cudaLaunchKernel
#define hipLaunchCooperativeKernel cudaLaunchCooperativeKernel

inline hipError_t hipInit(unsigned) { return hipSuccess; }
template <class T>
inline hipError_t hipHostMalloc(T** p, size_t size, unsigned = 0) {
  return cudaMalloc(reinterpret_cast<void**>(p), size);
}
template <class T>
inline hipError_t hipMallocHost(T** p, size_t size) {
  return cudaMalloc(reinterpret_cast<void**>(p), size);
}
template <class T>
inline hipError_t hipHostAlloc(T** p, size_t size, unsigned = 0) {
  return cudaMalloc(reinterpret_cast<void**>(p), size);
}
inline hipError_t hipMemcpyHtoD(void* dst, const void* src, size_t n) { return cudaMemcpy(dst, src, n); }
inline hipError_t hipMemcpyDtoH(void* dst, const void* src, size_t n) { return cudaMemcpy(dst, src, n); }
inline hipError_t hipMemcpyDtoD(void* dst, const void* src, size_t n) { return cudaMemcpy(dst, src, n); }
inline hipError_t hipMemsetD32(void* p, int value, size_t count) {
  for (size_t i = 0; i < count; ++i) static_cast<int*>(p)[i] = value;
  return hipSuccess;
}
inline hipError_t hipMemsetD8(void* p, unsigned char value, size_t count) { return cudaMemset(p, value, count); }

#define HIP_KERNEL_NAME(...) __VA_ARGS__
#define HIP_SYMBOL(x) x
#define hipLaunchKernelGGL(kernel, grid, block, shmem, stream, ...) \
  ::cass::launch(#kernel, grid, block, shmem, stream)([&] { kernel(__VA_ARGS__); })
#define HIP_DYNAMIC_SHARED(type, var) type* var = static_cast<type*>(::cass::dynamic_shared())
#define HIP_DYNAMIC_SHARED_ATTRIBUTE

#define hipThreadIdx_x (threadIdx.x)
#define hipThreadIdx_y (threadIdx.y)
#define hipThreadIdx_z (threadIdx.z)
#define hipBlockIdx_x (blockIdx.x)
#define hipBlockIdx_y (blockIdx.y)
#define hipBlockIdx_z (blockIdx.z)
#define hipBlockDim_x (blockDim.x)
#define hipBlockDim_y (blockDim.y)
#define hipBlockDim_z (blockDim.z)
#define hipGridDim_x (gridDim.x)
#define hipGridDim_y (gridDim.y)
#define hipGridDim_z (gridDim.z)
