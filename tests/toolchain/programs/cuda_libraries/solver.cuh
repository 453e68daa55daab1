#pragma once
#include <cstdio>
#include <cstdlib>
#include <cublas_v2.h>
#include <cufft.h>
#include <cusparse.h>

#define CUDA_CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); std::exit(1); } } while (0)
#define CUBLAS_CHECK(call) do { cublasStatus_t s_ = (call); if (s_ != CUBLAS_STATUS_SUCCESS) { \
  std::fprintf(stderr, "%s:%d: cuBLAS status %d\n", __FILE__, __LINE__, (int)s_); std::exit(1); } } while (0)
#define CUSPARSE_CHECK(call) do { cusparseStatus_t s_ = (call); if (s_ != CUSPARSE_STATUS_SUCCESS) { \
  std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cusparseGetErrorString(s_)); std::exit(1); } } while (0)
#define CUFFT_CHECK(call) do { cufftResult r_ = (call); if (r_ != CUFFT_SUCCESS) { \
  std::fprintf(stderr, "%s:%d: cuFFT result %d\n", __FILE__, __LINE__, (int)r_); std::exit(1); } } while (0)

void fill_random(float* device, int n, unsigned long long seed, cudaStream_t stream);
float spmv_norm(cublasHandle_t blas, cusparseHandle_t sparse, const float* x, int n);
void spectrum(const float* signal, cufftComplex* out, int n, cudaStream_t stream);
