#include "CudaAdvector.h"

#include <cstdio>
#include <cstdlib>

#define CUDA_CHECK(call)                                                              \
  do {                                                                                \
    cudaError_t err_ = (call);                                                        \
    if (err_ != cudaSuccess) {                                                        \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
      std::exit(1);                                                                   \
    }                                                                                 \
  } while (0)

template <typename T>
__global__ void upwind(const T* __restrict__ cells, T* __restrict__ next, T courant, std::size_t n)
{
  std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < n) {
    std::size_t left = i == 0 ? n - 1 : i - 1;
    next[i] = cells[i] - courant * (cells[i] - cells[left]);
  }
}

template <typename T>
__global__ void block_sums(const T* cells, T* partial, std::size_t n)
{
  __shared__ T tile[ADVECT_BLOCK];
  T sum = 0;
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    sum += cells[i];
  tile[threadIdx.x] = sum;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
    if (threadIdx.x < s)
      tile[threadIdx.x] += tile[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    partial[blockIdx.x] = tile[0];
}

template <typename T>
CudaAdvector<T>::CudaAdvector(std::size_t n) : n_(n)
{
  CUDA_CHECK(cudaMalloc(&d_cells_, n * sizeof(T)));
  CUDA_CHECK(cudaMalloc(&d_next_, n * sizeof(T)));
  CUDA_CHECK(cudaMalloc(&d_partial_, ADVECT_BLOCK * sizeof(T)));
}

template <typename T>
CudaAdvector<T>::~CudaAdvector()
{
  cudaFree(d_cells_);
  cudaFree(d_next_);
  cudaFree(d_partial_);
}

template <typename T>
void CudaAdvector<T>::upload(const std::vector<T>& cells)
{
  CUDA_CHECK(cudaMemcpy(d_cells_, cells.data(), n_ * sizeof(T), cudaMemcpyHostToDevice));
}

template <typename T>
void CudaAdvector<T>::step(T courant)
{
  unsigned blocks = static_cast<unsigned>((n_ + ADVECT_BLOCK - 1) / ADVECT_BLOCK);
  upwind<<<blocks, ADVECT_BLOCK>>>(d_cells_, d_next_, courant, n_);
  CUDA_CHECK(cudaGetLastError());
  T* swap = d_cells_;
  d_cells_ = d_next_;
  d_next_ = swap;
}

template <typename T>
T CudaAdvector<T>::mass()
{
  block_sums<<<ADVECT_BLOCK, ADVECT_BLOCK>>>(d_cells_, d_partial_, n_);
  T partial[ADVECT_BLOCK];
  CUDA_CHECK(cudaMemcpy(partial, d_partial_, sizeof(partial), cudaMemcpyDeviceToHost));
  T total = 0;
  for (T p : partial)
    total += p;
  return total;
}

template <typename T>
void CudaAdvector<T>::download(std::vector<T>& cells)
{
  cells.resize(n_);
  CUDA_CHECK(cudaMemcpy(cells.data(), d_cells_, n_ * sizeof(T), cudaMemcpyDeviceToHost));
}

template class CudaAdvector<float>;
template class CudaAdvector<double>;
