// The model interface every programming model implements.
#pragma once
#include <cstddef>
#include <vector>

#define TRIAD_SCALAR 0.4

class Triad {
 public:
  virtual ~Triad() = default;
  virtual void init(double a, double b, double c) = 0;
  virtual void triad() = 0;
  virtual double checksum() = 0;
};

Triad* make_triad(std::size_t n);
