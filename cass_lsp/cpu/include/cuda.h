// CPU runtime replacement for <cuda.h>: the driver API's device and memory basics. Module loading and
// cuLaunchKernel (PTX/cubin) cannot run on a CPU; cass_lsp.cpu.refuse reports them before building.
#pragma once
#include <cass_cpu/runtime.hpp>

#include <cass_cpu/driver_enums.hpp>

#define CUDA_VERSION CUDART_VERSION

typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st* CUcontext;
typedef cudaStream_t CUstream;
typedef cudaEvent_t CUevent;

inline CUresult cuInit(unsigned) { return CUDA_SUCCESS; }
inline CUresult cuDriverGetVersion(int* v) {
  *v = CUDART_VERSION;
  return CUDA_SUCCESS;
}
inline CUresult cuDeviceGetCount(int* n) {
  *n = 1;
  return CUDA_SUCCESS;
}
inline CUresult cuDeviceGet(CUdevice* d, int ordinal) {
  *d = ordinal;
  return ordinal == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}
inline CUresult cuDeviceGetName(char* name, int len, CUdevice) {
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  std::snprintf(name, static_cast<size_t>(len), "%s", p.name);
  return CUDA_SUCCESS;
}
inline CUresult cuGetErrorName(CUresult r, const char** name) {
  *name = cass_cu_result_name(r);
  return *name != nullptr ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
// The driver's strings for the common results; the name for the others.
inline CUresult cuGetErrorString(CUresult r, const char** text) {
  switch (r) {
    case CUDA_SUCCESS: *text = "no error"; break;
    case CUDA_ERROR_INVALID_VALUE: *text = "invalid argument"; break;
    case CUDA_ERROR_OUT_OF_MEMORY: *text = "out of memory"; break;
    case CUDA_ERROR_NOT_INITIALIZED: *text = "initialization error"; break;
    case CUDA_ERROR_INVALID_DEVICE: *text = "invalid device ordinal"; break;
    case CUDA_ERROR_INVALID_CONTEXT: *text = "invalid device context"; break;
    case CUDA_ERROR_NOT_FOUND: *text = "named symbol not found"; break;
    default: return cuGetErrorName(r, text);
  }
  return CUDA_SUCCESS;
}
inline CUresult cuDeviceGetAttribute(int* value, CUdevice_attribute attr, CUdevice dev) {
  // The runtime's attribute of the same number (cudaDeviceGetAttribute is the driver's, renumbered nowhere).
  return cudaDeviceGetAttribute(value, static_cast<cudaDeviceAttr>(attr), dev) == cudaSuccess ? CUDA_SUCCESS
                                                                                            : CUDA_ERROR_INVALID_VALUE;
}
inline CUresult cuDeviceTotalMem(size_t* bytes, CUdevice dev) {
  cudaDeviceProp p;
  if (cudaGetDeviceProperties(&p, dev) != cudaSuccess) return CUDA_ERROR_INVALID_DEVICE;
  *bytes = p.totalGlobalMem;
  return CUDA_SUCCESS;
}
inline CUresult cuDeviceComputeCapability(int* major, int* minor, CUdevice dev) {
  cudaDeviceProp p;
  if (cudaGetDeviceProperties(&p, dev) != cudaSuccess) return CUDA_ERROR_INVALID_DEVICE;
  *major = p.major;
  *minor = p.minor;
  return CUDA_SUCCESS;
}
// One device, one context: a context handle is only ever compared or passed back.
inline CUcontext cass_cu_primary_context() { return reinterpret_cast<CUcontext>(0x1); }
inline CUresult cuDevicePrimaryCtxRetain(CUcontext* ctx, CUdevice dev) {
  *ctx = cass_cu_primary_context();
  return dev == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}
inline CUresult cuDevicePrimaryCtxRelease(CUdevice dev) { return dev == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE; }
inline CUresult cuCtxCreate(CUcontext* ctx, unsigned, CUdevice dev) { return cuDevicePrimaryCtxRetain(ctx, dev); }
inline CUresult cuCtxDestroy(CUcontext) { return CUDA_SUCCESS; }
inline CUresult cuCtxSetCurrent(CUcontext) { return CUDA_SUCCESS; }
inline CUresult cuCtxGetCurrent(CUcontext* ctx) {
  *ctx = cass_cu_primary_context();
  return CUDA_SUCCESS;
}
inline CUresult cuCtxSynchronize() { return CUDA_SUCCESS; }
inline CUresult cuMemGetInfo(size_t* free_bytes, size_t* total) {
  cudaMemGetInfo(free_bytes, total);
  return CUDA_SUCCESS;
}
inline CUresult cuMemsetD32(CUdeviceptr p, unsigned int value, size_t count) {
  for (size_t i = 0; i < count; ++i) reinterpret_cast<unsigned int*>(p)[i] = value;
  return CUDA_SUCCESS;
}
inline CUresult cuMemsetD8(CUdeviceptr p, unsigned char value, size_t count) {
  cudaMemset(reinterpret_cast<void*>(p), value, count);
  return CUDA_SUCCESS;
}
inline CUresult cuMemcpyDtoD(CUdeviceptr dst, CUdeviceptr src, size_t n) {
  cudaMemcpy(reinterpret_cast<void*>(dst), reinterpret_cast<const void*>(src), n);
  return CUDA_SUCCESS;
}
inline CUresult cuMemAlloc(CUdeviceptr* p, size_t n) {
  void* v = nullptr;
  if (cudaMalloc(&v, n) != cudaSuccess) return CUDA_ERROR_OUT_OF_MEMORY;
  *p = reinterpret_cast<CUdeviceptr>(v);
  return CUDA_SUCCESS;
}
inline CUresult cuMemFree(CUdeviceptr p) {
  cudaFree(reinterpret_cast<void*>(p));
  return CUDA_SUCCESS;
}
inline CUresult cuMemcpyHtoD(CUdeviceptr dst, const void* src, size_t n) {
  cudaMemcpy(reinterpret_cast<void*>(dst), src, n);
  return CUDA_SUCCESS;
}
inline CUresult cuMemcpyDtoH(void* dst, CUdeviceptr src, size_t n) {
  cudaMemcpy(dst, reinterpret_cast<const void*>(src), n);
  return CUDA_SUCCESS;
}
