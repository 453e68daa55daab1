// CUB's warp collectives on the CPU runtime: one warp exchange among the lanes of the logical warp
// (cass_cpu/sched.hpp), as CUB's shuffle-based ones are (so, as on a GPU, a warp may reuse its
// TempStorage without a __syncwarp); values larger than a shuffle go through the TempStorage.
// Results CUB leaves undefined (a reduction outside lane 0, lane 0's unseeded exclusive scan) are the
// lane's own input or a value-initialized T.
#pragma once
#include "util.hpp"

namespace cub {
namespace detail {

template <class T>
constexpr bool kShuffled = sizeof(T) <= sizeof(unsigned long long) && std::is_trivially_copyable_v<T>;

template <int W>
struct LogicalWarp {
  static_assert(W >= 1 && W <= CASS_CPU_WARP_SIZE && (W & (W - 1)) == 0,
                "LOGICAL_WARP_THREADS must be a power of two no wider than the warp");
  unsigned lane, base;
  ::cass::detail::lanemask mask;
  LogicalWarp() {
    const unsigned hw = ::cass::detail::this_thread()->lane;
    lane = hw % W;
    base = hw - lane;
    mask = W == CASS_CPU_WARP_SIZE ? ::cass::detail::kFullWarp : ((1ull << W) - 1) << base;
  }
};

// Every lane's value of the logical warp, in lane order.
template <class T, int W>
struct WarpValues {
  Slots<T, W> item;
};

template <class T, int W>
void gather(WarpValues<T, W>& storage, const LogicalWarp<W>& warp, T input, T (&values)[W]) {
  if constexpr (kShuffled<T>) {
    unsigned long long bits = 0;
    std::memcpy(&bits, &input, sizeof(T));
    const auto ex = ::cass::detail::warp_exchange(bits, warp.mask);
    for (int j = 0; j < W; ++j) std::memcpy(&values[j], &ex.slots[warp.base + j], sizeof(T));
  } else {
    storage.item.put(warp.lane, input);
    ::cass::detail::warp_exchange(0, warp.mask);
    for (int j = 0; j < W; ++j) values[j] = storage.item[j];
    ::cass::detail::warp_exchange(0, warp.mask);  // no lane overwrites a value another has not read
  }
}

}  // namespace detail

template <class T, int LOGICAL_WARP_THREADS = CASS_CPU_WARP_SIZE, int = 0>
class WarpReduce {
  static constexpr int W = LOGICAL_WARP_THREADS;

 public:
  struct TempStorage : detail::WarpValues<T, W> {};
  explicit WarpReduce(TempStorage& s) : s_(s) {}

  T Sum(T input) { return reduce(input, cub::Sum(), W); }
  T Sum(T input, int valid_items) { return reduce(input, cub::Sum(), valid_items); }
  template <class Op>
  T Reduce(T input, Op op) { return reduce(input, op, W); }
  template <class Op>
  T Reduce(T input, Op op, int valid_items) { return reduce(input, op, valid_items); }

 private:
  template <class Op>
  T reduce(T input, Op op, int valid_items) {
    detail::LogicalWarp<W> warp;
    T values[W];
    detail::gather(s_, warp, input, values);
    if (warp.lane != 0) return input;
    T result = values[0];
    for (int j = 1; j < valid_items && j < W; ++j) result = op(result, values[j]);
    return result;
  }
  TempStorage& s_;
};

template <class T, int LOGICAL_WARP_THREADS = CASS_CPU_WARP_SIZE, int = 0>
class WarpScan {
  static constexpr int W = LOGICAL_WARP_THREADS;

 public:
  struct TempStorage : detail::WarpValues<T, W> {};
  explicit WarpScan(TempStorage& s) : s_(s) {}

  void InclusiveSum(T input, T& output) { T a; scan(input, output, cub::Sum(), nullptr, true, a); }
  void InclusiveSum(T input, T& output, T& warp_aggregate) { scan(input, output, cub::Sum(), nullptr, true, warp_aggregate); }
  void ExclusiveSum(T input, T& output) { T a, zero = T(); scan(input, output, cub::Sum(), &zero, false, a); }
  void ExclusiveSum(T input, T& output, T& warp_aggregate) {
    T zero = T();
    scan(input, output, cub::Sum(), &zero, false, warp_aggregate);
  }
  template <class Op>
  void InclusiveScan(T input, T& output, Op op) { T a; scan(input, output, op, nullptr, true, a); }
  template <class Op>
  void InclusiveScan(T input, T& output, Op op, T& warp_aggregate) { scan(input, output, op, nullptr, true, warp_aggregate); }
  template <class Op>
  void ExclusiveScan(T input, T& output, Op op) { T a; scan(input, output, op, nullptr, false, a); }
  template <class Op>
  void ExclusiveScan(T input, T& output, Op op, T& warp_aggregate) { scan(input, output, op, nullptr, false, warp_aggregate); }
  template <class Op>
  void ExclusiveScan(T input, T& output, T initial_value, Op op) { T a; scan(input, output, op, &initial_value, false, a); }
  template <class Op>
  void ExclusiveScan(T input, T& output, T initial_value, Op op, T& warp_aggregate) {
    scan(input, output, op, &initial_value, false, warp_aggregate);
  }
  T Broadcast(T input, unsigned src_lane) {
    detail::LogicalWarp<W> warp;
    T values[W];
    detail::gather(s_, warp, input, values);
    return values[src_lane % W];
  }

 private:
  // The aggregate leaves initial_value out, as in CUB.
  template <class Op>
  void scan(T input, T& output, Op op, const T* initial_value, bool inclusive, T& aggregate) {
    detail::LogicalWarp<W> warp;
    T values[W];
    detail::gather(s_, warp, input, values);
    const unsigned upto = inclusive ? warp.lane + 1 : warp.lane;
    T run = initial_value != nullptr ? *initial_value : T();
    bool seeded = initial_value != nullptr;
    for (unsigned j = 0; j < upto; ++j) {
      run = seeded ? op(run, values[j]) : values[j];
      seeded = true;
    }
    T total = values[0];
    for (int j = 1; j < W; ++j) total = op(total, values[j]);
    aggregate = total;
    output = run;
  }
  TempStorage& s_;
};

}  // namespace cub
