// The one interface every programming model implements: a 1D upwind advection step on a
// periodic grid, and the total mass (which the step conserves).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#define ADVECT_VERSION "1.3"

template <typename T>
class Advector {
public:
  virtual ~Advector() = default;
  virtual std::string model() const = 0;
  virtual void upload(const std::vector<T>& cells) = 0;
  virtual void step(T courant) = 0;
  virtual T mass() = 0;
  virtual void download(std::vector<T>& cells) = 0;
};
