// Error names for the CUDA libraries a program may use, shared by every sample of the suite. Each
// block compiles only where the program included that library's header before this one.
#pragma once
#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

static const char *error_name(cudaError_t error) { return cudaGetErrorName(error); }

#ifdef CUBLAS_API_H_
static const char *error_name(cublasStatus_t error) {
  switch (error) {
    case CUBLAS_STATUS_SUCCESS: return "CUBLAS_STATUS_SUCCESS";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
    case CUBLAS_STATUS_ALLOC_FAILED: return "CUBLAS_STATUS_ALLOC_FAILED";
    default: return "<unknown cublasStatus_t>";
  }
}
#endif

#ifdef _CUFFT_H_
static const char *error_name(cufftResult error) {
  switch (error) {
    case CUFFT_SUCCESS: return "CUFFT_SUCCESS";
    case CUFFT_INVALID_PLAN: return "CUFFT_INVALID_PLAN";
    case CUFFT_ALLOC_FAILED: return "CUFFT_ALLOC_FAILED";
    default: return "<unknown cufftResult>";
  }
}
#endif

template <typename T>
void check(T result, const char *call, const char *file, int line) {
  if (result) {
    std::fprintf(stderr, "%s:%d: %s failed: %s\n", file, line, call, error_name(result));
    std::exit(EXIT_FAILURE);
  }
}
#define CHECK(call) check((call), #call, __FILE__, __LINE__)
