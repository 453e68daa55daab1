// OpenMP target offload (or host threads when no device is configured).
#include <omp.h>

#include <string>
#include <vector>

#include "models.h"

#ifndef ADVECT_OMP_TARGET
#define ADVECT_PRAGMA(x)
#else
#define ADVECT_PRAGMA(x) _Pragma(#x)
#endif

template <typename T>
class OmpAdvector : public Advector<T> {
public:
  OmpAdvector(std::size_t n, int device) : n_(n), cells_(new T[n]), next_(new T[n])
  {
    omp_set_default_device(device);
    T* c = cells_;
    T* x = next_;
#pragma omp target enter data map(alloc : c[0:n], x[0:n])
  }
  ~OmpAdvector() override
  {
    T* c = cells_;
    T* x = next_;
#pragma omp target exit data map(release : c[0:n_], x[0:n_])
    delete[] cells_;
    delete[] next_;
  }
  std::string model() const override { return "OpenMP"; }
  void upload(const std::vector<T>& cells) override
  {
    T* c = cells_;
    for (std::size_t i = 0; i < n_; ++i)
      c[i] = cells[i];
#pragma omp target update to(c[0:n_])
  }
  void step(T courant) override
  {
    T* c = cells_;
    T* x = next_;
    const std::size_t n = n_;
#pragma omp target teams distribute parallel for simd
    for (std::size_t i = 0; i < n; ++i) {
      std::size_t left = i == 0 ? n - 1 : i - 1;
      x[i] = c[i] - courant * (c[i] - c[left]);
    }
    std::swap(cells_, next_);
  }
  T mass() override
  {
    T total = 0;
    T* c = cells_;
    const std::size_t n = n_;
    ADVECT_PRAGMA(omp target teams distribute parallel for reduction(+ : total))
#pragma omp parallel for reduction(+ : total)
    for (std::size_t i = 0; i < n; ++i)
      total += c[i];
    return total;
  }
  void download(std::vector<T>& cells) override
  {
    T* c = cells_;
#pragma omp target update from(c[0:n_])
    cells.assign(c, c + n_);
  }

private:
  std::size_t n_;
  T* cells_;
  T* next_;
};

template <typename T>
std::unique_ptr<Advector<T>> make_advector(std::size_t n, int device)
{
  return std::make_unique<OmpAdvector<T>>(n, device);
}

template std::unique_ptr<Advector<double>> make_advector<double>(std::size_t, int);
