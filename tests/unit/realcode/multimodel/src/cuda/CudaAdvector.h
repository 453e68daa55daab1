#pragma once

#include "Advector.h"

#include <cuda_runtime.h>

#define ADVECT_BLOCK 256

template <typename T>
class CudaAdvector : public Advector<T> {
public:
  explicit CudaAdvector(std::size_t n);
  ~CudaAdvector() override;
  std::string model() const override { return "CUDA"; }
  void upload(const std::vector<T>& cells) override;
  void step(T courant) override;
  T mass() override;
  void download(std::vector<T>& cells) override;

private:
  std::size_t n_;
  T* d_cells_ = nullptr;
  T* d_next_ = nullptr;
  T* d_partial_ = nullptr;
};
