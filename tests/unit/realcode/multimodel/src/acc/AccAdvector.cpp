// OpenACC: data regions around the arrays, kernels as parallel loops.
#include <openacc.h>

#include <string>
#include <vector>

#include "models.h"

template <typename T>
class AccAdvector : public Advector<T> {
public:
  AccAdvector(std::size_t n, int device) : n_(n), cells_(new T[n]), next_(new T[n])
  {
    acc_set_device_num(device, acc_device_default);
    T* c = cells_;
    T* x = next_;
#pragma acc enter data create(c[0:n], x[0:n])
  }
  ~AccAdvector() override
  {
    T* c = cells_;
    T* x = next_;
#pragma acc exit data delete(c[0:n_], x[0:n_])
    delete[] cells_;
    delete[] next_;
  }
  std::string model() const override { return "OpenACC"; }
  void upload(const std::vector<T>& cells) override
  {
    T* c = cells_;
    std::copy(cells.begin(), cells.end(), c);
#pragma acc update device(c[0:n_])
  }
  void step(T courant) override
  {
    T* restrict c = cells_;
    T* restrict x = next_;
    const std::size_t n = n_;
#pragma acc parallel loop present(c[0:n], x[0:n])
    for (std::size_t i = 0; i < n; ++i)
      x[i] = c[i] - courant * (c[i] - c[i == 0 ? n - 1 : i - 1]);
    std::swap(cells_, next_);
  }
  T mass() override
  {
    T total = 0;
    T* c = cells_;
    const std::size_t n = n_;
#pragma acc parallel loop reduction(+ : total) present(c[0:n])
    for (std::size_t i = 0; i < n; ++i)
      total += c[i];
    return total;
  }
  void download(std::vector<T>& cells) override
  {
    T* c = cells_;
#pragma acc update self(c[0:n_])
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
  return std::make_unique<AccAdvector<T>>(n, device);
}

template std::unique_ptr<Advector<double>> make_advector<double>(std::size_t, int);
