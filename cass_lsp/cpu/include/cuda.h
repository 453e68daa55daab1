// CPU runtime replacement for <cuda.h>: the driver API's device and memory basics. Module loading and
// cuLaunchKernel (PTX/cubin) cannot run on a CPU; cass_lsp.cpu.refuse reports them before building.
#pragma once
#include <cass_cpu/runtime.hpp>

enum CUresult { CUDA_SUCCESS = 0, CUDA_ERROR_INVALID_VALUE = 1, CUDA_ERROR_OUT_OF_MEMORY = 2, CUDA_ERROR_INVALID_DEVICE = 101 };
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
inline CUresult cuCtxSynchronize() { return CUDA_SUCCESS; }
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
