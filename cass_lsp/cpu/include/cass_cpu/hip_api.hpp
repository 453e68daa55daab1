// HIP names mapped onto the CUDA-named implementation, so a CUDA original and its HIP translation
// run on the same runtime and differ only where their source differs.
#pragma once
#include "runtime.hpp"

typedef cudaError_t hipError_t;
typedef cudaStream_t hipStream_t;
typedef cudaEvent_t hipEvent_t;
typedef cudaHostFn_t hipHostFn_t;
typedef void* hipDeviceptr_t;
// Macros, not typedefs, for the names of structs and enums (ROCm's own hipDeviceProp_t is one:
// `#define hipDeviceProp_t hipDeviceProp_tR0600`): HIP code writes `struct hipDeviceProp_t p;` and
// `struct hipFuncAttributes a;` (hipify keeps CUDA's `struct cudaDeviceProp`), which g++ rejects for
// a typedef name; the type is the one the CUDA side uses, so both read the same fields.
#define hipDeviceProp_t cudaDeviceProp
#define hipFuncAttributes cudaFuncAttributes
#define hipMemcpyKind cudaMemcpyKind
#define hipDeviceAttribute_t cudaDeviceAttr
#define hipFuncCache_t cudaFuncCache

// The plain renames (hipMalloc -> cudaMalloc, hipErrorAssert -> cudaErrorAssert, ...) of every CUDA
// name this runtime defines, generated from the API tables by cass_lsp/cpu/hip_names.py; what
// differs from a rename is written out here.
#include "hip_names.hpp"

#define hipErrorMemoryAllocation cudaErrorMemoryAllocation
#define hipFreeHost cudaFreeHost

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
inline hipError_t hipMemcpyDtoH(void* dst, const void* src, size_t n, int line = __builtin_LINE()) {
  return cudaMemcpy(dst, src, n, cudaMemcpyDeviceToHost, line);
}
inline hipError_t hipMemcpyDtoD(void* dst, const void* src, size_t n) { return cudaMemcpy(dst, src, n); }
inline hipError_t hipMemsetD32(void* p, int value, size_t count) {
  for (size_t i = 0; i < count; ++i) static_cast<int*>(p)[i] = value;
  return hipSuccess;
}
inline hipError_t hipMemsetD8(void* p, unsigned char value, size_t count) { return cudaMemset(p, value, count); }

#define HIP_KERNEL_NAME(...) __VA_ARGS__
#define HIP_SYMBOL(x) x
// Arguments evaluated once, as for <<<>>> (see rewrite.py).
#define hipLaunchKernelGGL(kernel, grid, block, shmem, stream, ...) \
  ::cass::launch(#kernel, grid, block, shmem, stream)([&](auto&... cass_a) { kernel(cass_a...); }, ##__VA_ARGS__)
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
#define make_hipExtent make_cudaExtent
#define make_hipPos make_cudaPos
#define make_hipPitchedPtr make_cudaPitchedPtr
