// SYCL 2020: buffers, accessors and a reduction.
#include <sycl/sycl.hpp>

#include <string>
#include <vector>

#include "models.h"

template <typename T>
class SyclAdvector : public Advector<T> {
public:
  SyclAdvector(std::size_t n, int device)
      : n_(n), queue_(sycl::device::get_devices()[device]), cells_(sycl::range<1>{n}), next_(sycl::range<1>{n})
  {
  }
  std::string model() const override
  {
    return "SYCL on " + queue_.get_device().template get_info<sycl::info::device::name>();
  }
  void upload(const std::vector<T>& cells) override
  {
    queue_.submit([&](sycl::handler& h) {
      sycl::accessor out{cells_, h, sycl::write_only, sycl::no_init};
      h.copy(cells.data(), out);
    });
  }
  void step(T courant) override
  {
    queue_.submit([&, n = n_](sycl::handler& h) {
      sycl::accessor c{cells_, h, sycl::read_only};
      sycl::accessor x{next_, h, sycl::write_only, sycl::no_init};
      h.parallel_for(sycl::range<1>{n}, [=](sycl::id<1> idx) {
        const std::size_t i = idx[0];
        const std::size_t left = i == 0 ? n - 1 : i - 1;
        x[i] = c[i] - courant * (c[i] - c[left]);
      });
    });
    std::swap(cells_, next_);
  }
  T mass() override
  {
    T total = 0;
    {
      sycl::buffer<T, 1> sum{&total, 1};
      queue_.submit([&](sycl::handler& h) {
        sycl::accessor c{cells_, h, sycl::read_only};
        auto reduction = sycl::reduction(sum, h, sycl::plus<T>());
        h.parallel_for(sycl::range<1>{n_}, reduction, [=](sycl::id<1> i, auto& acc) { acc += c[i]; });
      });
    }
    return total;
  }
  void download(std::vector<T>& cells) override
  {
    cells.resize(n_);
    sycl::host_accessor c{cells_, sycl::read_only};
    for (std::size_t i = 0; i < n_; ++i)
      cells[i] = c[i];
  }

private:
  std::size_t n_;
  sycl::queue queue_;
  sycl::buffer<T, 1> cells_;
  sycl::buffer<T, 1> next_;
};

template <typename T>
std::unique_ptr<Advector<T>> make_advector(std::size_t n, int device)
{
  return std::make_unique<SyclAdvector<T>>(n, device);
}

template std::unique_ptr<Advector<double>> make_advector<double>(std::size_t, int);
