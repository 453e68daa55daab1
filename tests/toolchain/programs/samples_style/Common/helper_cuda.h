// Error checks and device selection shared by every sample. What it defines depends on what the
// sample included before it: the CUDA headers' include guards tell.
#ifndef COMMON_HELPER_CUDA_H_
#define COMMON_HELPER_CUDA_H_
#include <stdio.h>
#include <stdlib.h>
#include <helper_timer.h>

#ifdef __DRIVER_TYPES_H__
static const char *error_name(cudaError_t error) { return cudaGetErrorName(error); }
#endif

#ifdef CUBLAS_API_H_
static const char *error_name(cublasStatus_t error) {
  return error == CUBLAS_STATUS_SUCCESS ? "CUBLAS_STATUS_SUCCESS" : "a cuBLAS error";
}
#endif

template <typename T>
void check(T result, char const *const func, const char *const file, int const line) {
  if (result) {
    fprintf(stderr, "CUDA error at %s:%d code=%d(%s) \"%s\"\n", file, line, static_cast<unsigned int>(result),
            error_name(result), func);
    exit(EXIT_FAILURE);
  }
}
#define checkCudaErrors(val) check((val), #val, __FILE__, __LINE__)

#ifdef __CUDA_RUNTIME_H__
inline int findCudaDevice() {
  int count = 0;
  checkCudaErrors(cudaGetDeviceCount(&count));
  if (count == 0) {
    fprintf(stderr, "no CUDA device\n");
    exit(EXIT_FAILURE);
  }
  int mode = 0;
  checkCudaErrors(cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, 0));
  if (mode == cudaComputeModeProhibited) {
    fprintf(stderr, "device 0 is in prohibited compute mode\n");
    exit(EXIT_FAILURE);
  }
  checkCudaErrors(cudaSetDevice(0));
  return 0;
}
#endif
#endif  // COMMON_HELPER_CUDA_H_
