#include <curand_kernel.h>

#include "solver.cuh"

__global__ void noise_kernel(float* out, int n, unsigned long long seed) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  curandStatePhilox4_32_10_t state;
  curand_init(seed, i, 0, &state);
  out[i] = curand_uniform(&state);
}

void fill_random(float* device, int n, unsigned long long seed, cudaStream_t stream) {
  const int block = 256;
  noise_kernel<<<(n + block - 1) / block, block, 0, stream>>>(device, n, seed);
  CUDA_CHECK(cudaGetLastError());
}

void spectrum(const float* signal, cufftComplex* out, int n, cudaStream_t stream) {
  cufftHandle plan;
  CUFFT_CHECK(cufftPlan1d(&plan, n, CUFFT_R2C, 1));
  CUFFT_CHECK(cufftSetStream(plan, stream));
  CUFFT_CHECK(cufftExecR2C(plan, const_cast<cufftReal*>(signal), out));
  CUFFT_CHECK(cufftDestroy(plan));
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 1 << 20;
  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreate(&stream));
  cublasHandle_t blas;
  cusparseHandle_t sparse;
  CUBLAS_CHECK(cublasCreate(&blas));
  CUSPARSE_CHECK(cusparseCreate(&sparse));
  float* x;
  cufftComplex* freq;
  CUDA_CHECK(cudaMalloc(&x, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&freq, (n / 2 + 1) * sizeof(cufftComplex)));
  fill_random(x, n, 1234ULL, stream);
  CUDA_CHECK(cudaStreamSynchronize(stream));
  std::printf("||A x|| = %.4f\n", spmv_norm(blas, sparse, x, n));
  spectrum(x, freq, n, stream);
  cufftComplex dc;
  CUDA_CHECK(cudaMemcpyAsync(&dc, freq, sizeof(dc), cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));
  std::printf("mean = %.4f\n", dc.x / n);
  CUSPARSE_CHECK(cusparseDestroy(sparse));
  CUBLAS_CHECK(cublasDestroy(blas));
  CUDA_CHECK(cudaFree(freq));
  CUDA_CHECK(cudaFree(x));
  CUDA_CHECK(cudaStreamDestroy(stream));
  return 0;
}
