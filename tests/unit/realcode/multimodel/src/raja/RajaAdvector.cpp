// RAJA: one forall per kernel; the execution policy is chosen by what RAJA was built with.
#include <RAJA/RAJA.hpp>
#include <umpire/Umpire.hpp>

#include <string>
#include <vector>

#include "models.h"

#if defined(RAJA_ENABLE_CUDA)
using policy = RAJA::cuda_exec<256>;
using reduce_policy = RAJA::cuda_reduce;
#elif defined(RAJA_ENABLE_OPENMP)
using policy = RAJA::omp_parallel_for_exec;
using reduce_policy = RAJA::omp_reduce;
#else
using policy = RAJA::seq_exec;
using reduce_policy = RAJA::seq_reduce;
#endif

template <typename T>
class RajaAdvector : public Advector<T> {
public:
  RajaAdvector(std::size_t n, int device) : n_(n)
  {
    (void)device;
    auto& rm = umpire::ResourceManager::getInstance();
    allocator_ = rm.getAllocator("DEVICE");
    cells_ = static_cast<T*>(allocator_.allocate(n * sizeof(T)));
    next_ = static_cast<T*>(allocator_.allocate(n * sizeof(T)));
  }
  ~RajaAdvector() override
  {
    allocator_.deallocate(cells_);
    allocator_.deallocate(next_);
  }
  std::string model() const override { return "RAJA"; }
  void upload(const std::vector<T>& cells) override
  {
    umpire::ResourceManager::getInstance().copy(cells_, const_cast<T*>(cells.data()), n_ * sizeof(T));
  }
  void step(T courant) override
  {
    T* RAJA_RESTRICT c = cells_;
    T* RAJA_RESTRICT x = next_;
    const RAJA::Index_type n = static_cast<RAJA::Index_type>(n_);
    RAJA::forall<policy>(RAJA::TypedRangeSegment<RAJA::Index_type>(0, n), [=] RAJA_HOST_DEVICE(RAJA::Index_type i) {
      const RAJA::Index_type left = i == 0 ? n - 1 : i - 1;
      x[i] = c[i] - courant * (c[i] - c[left]);
    });
    std::swap(cells_, next_);
  }
  T mass() override
  {
    RAJA::ReduceSum<reduce_policy, T> total(0);
    T* c = cells_;
    RAJA::forall<policy>(RAJA::TypedRangeSegment<std::size_t>(0, n_), [=] RAJA_DEVICE(std::size_t i) {
      total += c[i];
    });
    return total.get();
  }
  void download(std::vector<T>& cells) override
  {
    cells.resize(n_);
    umpire::ResourceManager::getInstance().copy(cells.data(), cells_, n_ * sizeof(T));
  }

private:
  std::size_t n_;
  umpire::Allocator allocator_;
  T* cells_ = nullptr;
  T* next_ = nullptr;
};

template <typename T>
std::unique_ptr<Advector<T>> make_advector(std::size_t n, int device)
{
  return std::make_unique<RajaAdvector<T>>(n, device);
}

template std::unique_ptr<Advector<double>> make_advector<double>(std::size_t, int);
