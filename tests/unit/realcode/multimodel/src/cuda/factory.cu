#include "models.h"
#include "CudaAdvector.h"

template <typename T>
std::unique_ptr<Advector<T>> make_advector(std::size_t n, int device)
{
  cudaSetDevice(device);
  return std::make_unique<CudaAdvector<T>>(n);
}

template std::unique_ptr<Advector<double>> make_advector<double>(std::size_t, int);
