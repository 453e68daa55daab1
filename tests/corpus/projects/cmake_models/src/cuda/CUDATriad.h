#pragma once
#include "Triad.h"

#define TBSIZE 1024
#define CUDA_CHECK(call)                                                              \
  do {                                                                                \
    cudaError_t err_ = (call);                                                        \
    if (err_ != cudaSuccess) {                                                        \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
      std::exit(1);                                                                   \
    }                                                                                 \
  } while (0)

class CUDATriad : public Triad {
 public:
  explicit CUDATriad(std::size_t n);
  ~CUDATriad() override;
  void init(double a, double b, double c) override;
  void triad() override;
  double checksum() override;

 private:
  std::size_t n_;
  double* d_a_;
  double* d_b_;
  double* d_c_;
};
