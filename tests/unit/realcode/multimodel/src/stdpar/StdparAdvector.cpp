// ISO C++ parallel algorithms (nvc++ -stdpar, or oneDPL / libstdc++ with TBB).
#include <algorithm>
#include <execution>
#include <numeric>
#include <string>
#include <vector>

#include "models.h"

template <typename T>
class StdparAdvector : public Advector<T> {
public:
  StdparAdvector(std::size_t n, int) : cells_(n), next_(n), index_(n) { std::iota(index_.begin(), index_.end(), 0); }
  std::string model() const override { return "std::par"; }
  void upload(const std::vector<T>& cells) override
  {
    std::copy(std::execution::par_unseq, cells.begin(), cells.end(), cells_.begin());
  }
  void step(T courant) override
  {
    const T* c = cells_.data();
    const std::size_t n = cells_.size();
    std::transform(std::execution::par_unseq, index_.begin(), index_.end(), next_.begin(),
                   [=](std::size_t i) { return c[i] - courant * (c[i] - c[i == 0 ? n - 1 : i - 1]); });
    cells_.swap(next_);
  }
  T mass() override { return std::reduce(std::execution::par_unseq, cells_.begin(), cells_.end(), T{}); }
  void download(std::vector<T>& cells) override { cells = cells_; }

private:
  std::vector<T> cells_;
  std::vector<T> next_;
  std::vector<std::size_t> index_;
};

template <typename T>
std::unique_ptr<Advector<T>> make_advector(std::size_t n, int device)
{
  return std::make_unique<StdparAdvector<T>>(n, device);
}

template std::unique_ptr<Advector<double>> make_advector<double>(std::size_t, int);
