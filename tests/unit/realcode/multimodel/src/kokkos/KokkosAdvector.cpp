// Kokkos: views on the default execution space; the CUDA backend, when Kokkos was built with it,
// is Kokkos's business, not this file's.
#include <Kokkos_Core.hpp>

#include <string>
#include <vector>

#include "models.h"

template <typename T>
struct UpwindFunctor {
  Kokkos::View<const T*> cells;
  Kokkos::View<T*> next;
  T courant;
  std::size_t n;

  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i) const
  {
    const std::size_t left = i == 0 ? n - 1 : i - 1;
    next(i) = cells(i) - courant * (cells(i) - cells(left));
  }
};

template <typename T>
class KokkosAdvector : public Advector<T> {
public:
  KokkosAdvector(std::size_t n, int device)
      : n_(n), cells_(Kokkos::view_alloc(Kokkos::WithoutInitializing, "cells"), n),
        next_(Kokkos::view_alloc(Kokkos::WithoutInitializing, "next"), n)
  {
    (void)device;
  }
  std::string model() const override { return std::string("Kokkos ") + Kokkos::DefaultExecutionSpace::name(); }
  void upload(const std::vector<T>& cells) override
  {
    auto host = Kokkos::create_mirror_view(cells_);
    for (std::size_t i = 0; i < n_; ++i)
      host(i) = cells[i];
    Kokkos::deep_copy(cells_, host);
  }
  void step(T courant) override
  {
    Kokkos::parallel_for("upwind", Kokkos::RangePolicy<>(0, n_), UpwindFunctor<T>{cells_, next_, courant, n_});
    Kokkos::fence();
    std::swap(cells_, next_);
  }
  T mass() override
  {
    T total = 0;
    auto cells = cells_;
    Kokkos::parallel_reduce(
        "mass", n_, KOKKOS_LAMBDA(const std::size_t i, T& sum) { sum += cells(i); }, total);
    return total;
  }
  void download(std::vector<T>& cells) override
  {
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), cells_);
    cells.assign(host.data(), host.data() + n_);
  }

private:
  std::size_t n_;
  Kokkos::View<T*> cells_;
  Kokkos::View<T*> next_;
};

template <typename T>
std::unique_ptr<Advector<T>> make_advector(std::size_t n, int device)
{
  return std::make_unique<KokkosAdvector<T>>(n, device);
}

template std::unique_ptr<Advector<double>> make_advector<double>(std::size_t, int);
