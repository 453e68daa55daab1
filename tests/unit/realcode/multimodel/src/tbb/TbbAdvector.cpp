// oneTBB: blocked ranges with a static partitioner for first-touch placement.
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <string>
#include <vector>

#include "models.h"

template <typename T>
class TbbAdvector : public Advector<T> {
public:
  TbbAdvector(std::size_t n, int) : cells_(n), next_(n) {}
  std::string model() const override { return "TBB"; }
  void upload(const std::vector<T>& cells) override { cells_ = cells; }
  void step(T courant) override
  {
    const std::size_t n = cells_.size();
    tbb::parallel_for(
        tbb::blocked_range<std::size_t>(0, n),
        [&](const tbb::blocked_range<std::size_t>& r) {
          for (std::size_t i = r.begin(); i < r.end(); ++i) {
            const std::size_t left = i == 0 ? n - 1 : i - 1;
            next_[i] = cells_[i] - courant * (cells_[i] - cells_[left]);
          }
        },
        tbb::static_partitioner());
    cells_.swap(next_);
  }
  T mass() override
  {
    return tbb::parallel_reduce(
        tbb::blocked_range<std::size_t>(0, cells_.size()), T{},
        [&](const tbb::blocked_range<std::size_t>& r, T acc) {
          for (std::size_t i = r.begin(); i != r.end(); ++i)
            acc += cells_[i];
          return acc;
        },
        std::plus<T>(), tbb::static_partitioner());
  }
  void download(std::vector<T>& cells) override { cells = cells_; }

private:
  std::vector<T> cells_;
  std::vector<T> next_;
};

template <typename T>
std::unique_ptr<Advector<T>> make_advector(std::size_t n, int device)
{
  return std::make_unique<TbbAdvector<T>>(n, device);
}

template std::unique_ptr<Advector<double>> make_advector<double>(std::size_t, int);
