// CUB's block- and warp-wide collectives on the CPU runtime's GPU threads. They synchronize as CUB's
// do: a block collective crosses __syncthreads (every thread of the block must call it, or the
// runtime reports the deadlock a GPU would hang in), a warp collective is one warp exchange
// (cass_cpu/sched.hpp), like the shuffles CUB's warp primitives are made of. The values exchanged
// live in the TempStorage the program puts in `__shared__`; results are CUB's, and those CUB leaves
// undefined (a reduction outside thread 0, thread 0's exclusive scan without a seed) are the thread's
// own input or a value-initialized T.
#pragma once
#include "util.hpp"

namespace cub {

enum BlockReduceAlgorithm { BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY, BLOCK_REDUCE_RAKING, BLOCK_REDUCE_WARP_REDUCTIONS };
enum BlockScanAlgorithm { BLOCK_SCAN_RAKING, BLOCK_SCAN_RAKING_MEMOIZE, BLOCK_SCAN_WARP_SCANS };
enum BlockLoadAlgorithm {
  BLOCK_LOAD_DIRECT, BLOCK_LOAD_STRIPED, BLOCK_LOAD_VECTORIZE, BLOCK_LOAD_TRANSPOSE, BLOCK_LOAD_WARP_TRANSPOSE,
  BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED
};
enum BlockStoreAlgorithm {
  BLOCK_STORE_DIRECT, BLOCK_STORE_STRIPED, BLOCK_STORE_VECTORIZE, BLOCK_STORE_TRANSPOSE, BLOCK_STORE_WARP_TRANSPOSE,
  BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED
};

namespace detail {

// CUB's row-major thread rank for a block of the collective's declared shape. A block of another
// shape is undefined on a GPU (a thread outside the shape indexes past the TempStorage, a missing
// one leaves its part unwritten): the run stops and says so.
template <int X, int Y, int Z>
int block_rank(const char* collective) {
  if (blockDim.x != unsigned(X) || blockDim.y != unsigned(Y) || blockDim.z != unsigned(Z)) {
    static thread_local char why[256];
    std::snprintf(why, sizeof why, "%s<%d x %d x %d threads> called in a block of %u x %u x %u threads", collective,
                  X, Y, Z, blockDim.x, blockDim.y, blockDim.z);
    ::cass::detail::cannot_run(why);
  }
  return int(threadIdx.x + threadIdx.y * X + threadIdx.z * X * Y);
}

// Each thread's value, then all of them in rank order, to every thread, over the block's barrier.
template <class T, int N>
struct BlockValues {
  Slots<T, N> item;
  Slots<T, N> prefix;  // exclusive prefixes, computed once by thread 0
  Slots<T, 2> total;   // [0] the aggregate, [1] the prefix a callback returned
};

template <class T, int N, class Op, class Prefix>
T block_exclusive(BlockValues<T, N>& s, int rank, T partial, Op op, T& aggregate, Prefix* callback, bool& seeded) {
  s.item.put(rank, partial);
  __syncthreads();
  if (rank == 0) {
    T run = s.item[0];
    s.prefix.put(0, run);
    for (int i = 1; i < N; ++i) {
      s.prefix.put(i, run);
      run = op(run, s.item[i]);
    }
    s.total.put(0, run);
  }
  __syncthreads();
  aggregate = s.total[0];
  T exclusive = rank == 0 ? T() : s.prefix[rank];
  seeded = rank != 0;
  if constexpr (!std::is_same_v<Prefix, NullType>) {
    // CUB calls the callback in the block's first warp and uses lane 0's answer.
    if (rank < CASS_CPU_WARP_SIZE) {
      T given = (*callback)(aggregate);
      if (rank == 0) s.total.put(1, given);
    }
    __syncthreads();
    const T block_prefix = s.total[1];
    exclusive = rank == 0 ? block_prefix : op(block_prefix, exclusive);
    seeded = true;
  }
  return exclusive;
}

}  // namespace detail

template <class T, int BLOCK_DIM_X, BlockReduceAlgorithm = BLOCK_REDUCE_WARP_REDUCTIONS, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1, int = 0>
class BlockReduce {
  static constexpr int kThreads = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;

 public:
  struct TempStorage {
    detail::Slots<T, kThreads> item;
  };
  BlockReduce() : s_(private_storage()), rank_(rank()) {}
  explicit BlockReduce(TempStorage& s) : s_(s), rank_(rank()) {}

  template <class Op>
  T Reduce(T input, Op op) { return reduce(input, op, kThreads); }
  template <class Op>
  T Reduce(T input, Op op, int num_valid) { return reduce(input, op, num_valid); }
  template <int N, class Op>
  T Reduce(T (&inputs)[N], Op op) {
    T partial = inputs[0];
    for (int i = 1; i < N; ++i) partial = op(partial, inputs[i]);
    return reduce(partial, op, kThreads);
  }
  T Sum(T input) { return reduce(input, cub::Sum(), kThreads); }
  T Sum(T input, int num_valid) { return reduce(input, cub::Sum(), num_valid); }
  template <int N>
  T Sum(T (&inputs)[N]) { return Reduce(inputs, cub::Sum()); }

 private:
  static int rank() {
    return detail::block_rank<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>("cub::BlockReduce");
  }
  static TempStorage& private_storage() {
    static thread_local TempStorage s;  // per block, as CUB's private __shared__ storage
    return s;
  }
  template <class Op>
  T reduce(T input, Op op, int num_valid) {
    s_.item.put(rank_, input);
    __syncthreads();
    if (rank_ != 0) return input;
    T result = s_.item[0];
    for (int i = 1; i < num_valid && i < kThreads; ++i) result = op(result, s_.item[i]);
    return result;
  }
  TempStorage& s_;
  int rank_;
};

template <class T, int BLOCK_DIM_X, BlockScanAlgorithm = BLOCK_SCAN_RAKING, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1,
          int = 0>
class BlockScan {
  static constexpr int kThreads = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;

 public:
  struct TempStorage : detail::BlockValues<T, kThreads> {};
  BlockScan() : s_(private_storage()), rank_(rank()) {}
  explicit BlockScan(TempStorage& s) : s_(s), rank_(rank()) {}

  // ---- sums
  void ExclusiveSum(T input, T& output) { T a; ExclusiveScan(input, output, T(), cub::Sum(), a); }
  void ExclusiveSum(T input, T& output, T& block_aggregate) { ExclusiveScan(input, output, T(), cub::Sum(), block_aggregate); }
  template <class P>
  void ExclusiveSum(T input, T& output, P& prefix_op) { ExclusiveScan(input, output, cub::Sum(), prefix_op); }
  template <int N>
  void ExclusiveSum(T (&input)[N], T (&output)[N]) { T a; ExclusiveScan(input, output, T(), cub::Sum(), a); }
  template <int N>
  void ExclusiveSum(T (&input)[N], T (&output)[N], T& block_aggregate) {
    ExclusiveScan(input, output, T(), cub::Sum(), block_aggregate);
  }
  template <int N, class P>
  void ExclusiveSum(T (&input)[N], T (&output)[N], P& prefix_op) { ExclusiveScan(input, output, cub::Sum(), prefix_op); }
  void InclusiveSum(T input, T& output) { T a; InclusiveScan(input, output, cub::Sum(), a); }
  void InclusiveSum(T input, T& output, T& block_aggregate) { InclusiveScan(input, output, cub::Sum(), block_aggregate); }
  template <class P>
  void InclusiveSum(T input, T& output, P& prefix_op) { InclusiveScan(input, output, cub::Sum(), prefix_op); }
  template <int N>
  void InclusiveSum(T (&input)[N], T (&output)[N]) { T a; InclusiveScan(input, output, cub::Sum(), a); }
  template <int N>
  void InclusiveSum(T (&input)[N], T (&output)[N], T& block_aggregate) {
    InclusiveScan(input, output, cub::Sum(), block_aggregate);
  }
  template <int N, class P>
  void InclusiveSum(T (&input)[N], T (&output)[N], P& prefix_op) { InclusiveScan(input, output, cub::Sum(), prefix_op); }

  // ---- exclusive scans: seeded by initial_value, or by what a prefix callback returns
  template <class Op>
  void ExclusiveScan(T input, T& output, T initial_value, Op op) { T a; ExclusiveScan(input, output, initial_value, op, a); }
  template <class Op>
  void ExclusiveScan(T input, T& output, T initial_value, Op op, T& block_aggregate) {
    T in[1] = {input}, out[1];
    exclusive_items(in, out, &initial_value, op, block_aggregate, static_cast<NullType*>(nullptr));
    output = out[0];
  }
  template <class Op, class P>
  void ExclusiveScan(T input, T& output, Op op, P& prefix_op) {
    T in[1] = {input}, out[1], a;
    exclusive_items(in, out, static_cast<T*>(nullptr), op, a, &prefix_op);
    output = out[0];
  }
  template <int N, class Op>
  void ExclusiveScan(T (&input)[N], T (&output)[N], T initial_value, Op op) {
    T a;
    ExclusiveScan(input, output, initial_value, op, a);
  }
  template <int N, class Op>
  void ExclusiveScan(T (&input)[N], T (&output)[N], T initial_value, Op op, T& block_aggregate) {
    exclusive_items(input, output, &initial_value, op, block_aggregate, static_cast<NullType*>(nullptr));
  }
  template <int N, class Op, class P>
  void ExclusiveScan(T (&input)[N], T (&output)[N], Op op, P& prefix_op) {
    T a;
    exclusive_items(input, output, static_cast<T*>(nullptr), op, a, &prefix_op);
  }

  // ---- inclusive scans
  template <class Op>
  void InclusiveScan(T input, T& output, Op op) { T a; InclusiveScan(input, output, op, a); }
  template <class Op>
  void InclusiveScan(T input, T& output, Op op, T& block_aggregate) {
    T in[1] = {input}, out[1];
    inclusive_items(in, out, op, block_aggregate, static_cast<NullType*>(nullptr));
    output = out[0];
  }
  template <class Op, class P>
  void InclusiveScan(T input, T& output, Op op, P& prefix_op) {
    T in[1] = {input}, out[1], a;
    inclusive_items(in, out, op, a, &prefix_op);
    output = out[0];
  }
  template <int N, class Op>
  void InclusiveScan(T (&input)[N], T (&output)[N], Op op) { T a; InclusiveScan(input, output, op, a); }
  template <int N, class Op>
  void InclusiveScan(T (&input)[N], T (&output)[N], Op op, T& block_aggregate) {
    inclusive_items(input, output, op, block_aggregate, static_cast<NullType*>(nullptr));
  }
  template <int N, class Op, class P>
  void InclusiveScan(T (&input)[N], T (&output)[N], Op op, P& prefix_op) {
    T a;
    inclusive_items(input, output, op, a, &prefix_op);
  }

 private:
  static int rank() {
    return detail::block_rank<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>("cub::BlockScan");
  }
  static TempStorage& private_storage() {
    static thread_local TempStorage s;
    return s;
  }
  template <int N, class Op>
  static T thread_total(const T (&input)[N], Op op) {
    T partial = input[0];
    for (int i = 1; i < N; ++i) partial = op(partial, input[i]);
    return partial;
  }
  // initial_value (or null) seeds the scan, and the aggregate leaves it out, as in CUB.
  template <int N, class Op, class P>
  void exclusive_items(const T (&input)[N], T (&output)[N], const T* initial_value, Op op, T& aggregate, P* prefix_op) {
    bool seeded;
    T run = detail::block_exclusive(s_, rank_, thread_total(input, op), op, aggregate, prefix_op, seeded);
    if (initial_value != nullptr) {
      run = seeded ? op(*initial_value, run) : *initial_value;
      seeded = true;
    }
    for (int i = 0; i < N; ++i) {
      const T item = input[i];  // read before the write: input may be output
      output[i] = seeded ? run : T();
      run = seeded ? op(run, item) : item;
      seeded = true;
    }
  }
  template <int N, class Op, class P>
  void inclusive_items(const T (&input)[N], T (&output)[N], Op op, T& aggregate, P* prefix_op) {
    bool seeded;
    T run = detail::block_exclusive(s_, rank_, thread_total(input, op), op, aggregate, prefix_op, seeded);
    for (int i = 0; i < N; ++i) {
      run = seeded ? op(run, input[i]) : input[i];
      seeded = true;
      output[i] = run;
    }
  }
  TempStorage& s_;
  int rank_;
};

// ---- loads and stores: blocked (thread t holds items t*N .. t*N+N-1) or striped (item i of every
// thread is one row: i*BLOCK_THREADS + t). The transposing algorithms end in the blocked arrangement.

template <class T, int N, class It>
void LoadDirectBlocked(int rank, It it, T (&items)[N]) {
  for (int i = 0; i < N; ++i) items[i] = it[rank * N + i];
}
template <class T, int N, class It>
void LoadDirectBlocked(int rank, It it, T (&items)[N], int valid_items) {
  for (int i = 0; i < N; ++i)
    if (rank * N + i < valid_items) items[i] = it[rank * N + i];
}
template <class T, class D, int N, class It>
void LoadDirectBlocked(int rank, It it, T (&items)[N], int valid_items, D oob_default) {
  for (int i = 0; i < N; ++i) items[i] = rank * N + i < valid_items ? T(it[rank * N + i]) : T(oob_default);
}
template <int BLOCK_THREADS, class T, int N, class It>
void LoadDirectStriped(int rank, It it, T (&items)[N]) {
  for (int i = 0; i < N; ++i) items[i] = it[i * BLOCK_THREADS + rank];
}
template <int BLOCK_THREADS, class T, int N, class It>
void LoadDirectStriped(int rank, It it, T (&items)[N], int valid_items) {
  for (int i = 0; i < N; ++i)
    if (i * BLOCK_THREADS + rank < valid_items) items[i] = it[i * BLOCK_THREADS + rank];
}
template <int BLOCK_THREADS, class T, class D, int N, class It>
void LoadDirectStriped(int rank, It it, T (&items)[N], int valid_items, D oob_default) {
  for (int i = 0; i < N; ++i) {
    const int at = i * BLOCK_THREADS + rank;
    items[i] = at < valid_items ? T(it[at]) : T(oob_default);
  }
}
template <class T, int N, class It>
void StoreDirectBlocked(int rank, It it, T (&items)[N]) {
  for (int i = 0; i < N; ++i) it[rank * N + i] = items[i];
}
template <class T, int N, class It>
void StoreDirectBlocked(int rank, It it, T (&items)[N], int valid_items) {
  for (int i = 0; i < N; ++i)
    if (rank * N + i < valid_items) it[rank * N + i] = items[i];
}
template <int BLOCK_THREADS, class T, int N, class It>
void StoreDirectStriped(int rank, It it, T (&items)[N]) {
  for (int i = 0; i < N; ++i) it[i * BLOCK_THREADS + rank] = items[i];
}
template <int BLOCK_THREADS, class T, int N, class It>
void StoreDirectStriped(int rank, It it, T (&items)[N], int valid_items) {
  for (int i = 0; i < N; ++i)
    if (i * BLOCK_THREADS + rank < valid_items) it[i * BLOCK_THREADS + rank] = items[i];
}

template <class T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, BlockLoadAlgorithm ALGORITHM = BLOCK_LOAD_DIRECT,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int = 0>
class BlockLoad {
  static constexpr int kThreads = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  static constexpr bool kStriped = ALGORITHM == BLOCK_LOAD_STRIPED;

 public:
  struct TempStorage {};
  BlockLoad() : rank_(rank()) {}
  explicit BlockLoad(TempStorage&) : rank_(rank()) {}
  template <class It>
  void Load(It it, T (&items)[ITEMS_PER_THREAD]) {
    if constexpr (kStriped) LoadDirectStriped<kThreads>(rank_, it, items);
    else LoadDirectBlocked(rank_, it, items);
  }
  template <class It>
  void Load(It it, T (&items)[ITEMS_PER_THREAD], int valid_items) {
    if constexpr (kStriped) LoadDirectStriped<kThreads>(rank_, it, items, valid_items);
    else LoadDirectBlocked(rank_, it, items, valid_items);
  }
  template <class It, class D>
  void Load(It it, T (&items)[ITEMS_PER_THREAD], int valid_items, D oob_default) {
    if constexpr (kStriped) LoadDirectStriped<kThreads>(rank_, it, items, valid_items, oob_default);
    else LoadDirectBlocked(rank_, it, items, valid_items, oob_default);
  }

 private:
  static int rank() {
    return detail::block_rank<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>("cub::BlockLoad");
  }
  int rank_;
};

template <class T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, BlockStoreAlgorithm ALGORITHM = BLOCK_STORE_DIRECT,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int = 0>
class BlockStore {
  static constexpr int kThreads = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  static constexpr bool kStriped = ALGORITHM == BLOCK_STORE_STRIPED;

 public:
  struct TempStorage {};
  BlockStore() : rank_(rank()) {}
  explicit BlockStore(TempStorage&) : rank_(rank()) {}
  template <class It>
  void Store(It it, T (&items)[ITEMS_PER_THREAD]) {
    if constexpr (kStriped) StoreDirectStriped<kThreads>(rank_, it, items);
    else StoreDirectBlocked(rank_, it, items);
  }
  template <class It>
  void Store(It it, T (&items)[ITEMS_PER_THREAD], int valid_items) {
    if constexpr (kStriped) StoreDirectStriped<kThreads>(rank_, it, items, valid_items);
    else StoreDirectBlocked(rank_, it, items, valid_items);
  }

 private:
  static int rank() {
    return detail::block_rank<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>("cub::BlockStore");
  }
  int rank_;
};

// A stable sort of the block's keys by their bits [begin_bit, end_bit), done by thread 0 between
// two barriers; keys in rank-major (blocked) order, results blocked or striped.
template <class K, int BLOCK_DIM_X, int ITEMS_PER_THREAD, class V = NullType, int = 4, bool = true,
          BlockScanAlgorithm = BLOCK_SCAN_WARP_SCANS, int = 0, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int = 0>
class BlockRadixSort {
  static constexpr int kThreads = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  static constexpr int kItems = kThreads * ITEMS_PER_THREAD;
  static constexpr bool kPairs = !std::is_same_v<V, NullType>;

 public:
  struct TempStorage {
    detail::Slots<K, kItems> keys;
    detail::Slots<std::conditional_t<kPairs, V, char>, kPairs ? kItems : 1> values;
  };
  BlockRadixSort() : s_(private_storage()), rank_(rank()) {}
  explicit BlockRadixSort(TempStorage& s) : s_(s), rank_(rank()) {}

  void Sort(K (&keys)[ITEMS_PER_THREAD], int begin_bit = 0, int end_bit = sizeof(K) * 8) {
    sort(keys, nullptr, begin_bit, end_bit, false, false);
  }
  void Sort(K (&keys)[ITEMS_PER_THREAD], V (&values)[ITEMS_PER_THREAD], int begin_bit = 0, int end_bit = sizeof(K) * 8) {
    sort(keys, &values, begin_bit, end_bit, false, false);
  }
  void SortDescending(K (&keys)[ITEMS_PER_THREAD], int begin_bit = 0, int end_bit = sizeof(K) * 8) {
    sort(keys, nullptr, begin_bit, end_bit, true, false);
  }
  void SortDescending(K (&keys)[ITEMS_PER_THREAD], V (&values)[ITEMS_PER_THREAD], int begin_bit = 0,
                      int end_bit = sizeof(K) * 8) {
    sort(keys, &values, begin_bit, end_bit, true, false);
  }
  void SortBlockedToStriped(K (&keys)[ITEMS_PER_THREAD], int begin_bit = 0, int end_bit = sizeof(K) * 8) {
    sort(keys, nullptr, begin_bit, end_bit, false, true);
  }
  void SortBlockedToStriped(K (&keys)[ITEMS_PER_THREAD], V (&values)[ITEMS_PER_THREAD], int begin_bit = 0,
                            int end_bit = sizeof(K) * 8) {
    sort(keys, &values, begin_bit, end_bit, false, true);
  }
  void SortDescendingBlockedToStriped(K (&keys)[ITEMS_PER_THREAD], int begin_bit = 0, int end_bit = sizeof(K) * 8) {
    sort(keys, nullptr, begin_bit, end_bit, true, true);
  }
  void SortDescendingBlockedToStriped(K (&keys)[ITEMS_PER_THREAD], V (&values)[ITEMS_PER_THREAD], int begin_bit = 0,
                                      int end_bit = sizeof(K) * 8) {
    sort(keys, &values, begin_bit, end_bit, true, true);
  }

 private:
  using Values = std::conditional_t<kPairs, V, char>;
  static int rank() {
    return detail::block_rank<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>(
        "cub::BlockRadixSort");
  }
  static TempStorage& private_storage() {
    static thread_local TempStorage s;
    return s;
  }
  void sort(K (&keys)[ITEMS_PER_THREAD], Values (*values)[ITEMS_PER_THREAD], int begin_bit, int end_bit, bool descending,
            bool striped) {
    for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
      s_.keys.put(rank_ * ITEMS_PER_THREAD + i, keys[i]);
      if constexpr (kPairs) if (values != nullptr) s_.values.put(rank_ * ITEMS_PER_THREAD + i, (*values)[i]);
    }
    __syncthreads();
    if (rank_ == 0) {
      const auto order = detail::radix_order(kItems, [&](std::size_t i) { return s_.keys[i]; }, begin_bit, end_bit,
                                             descending);
      std::vector<K> sorted_keys(kItems);
      for (int i = 0; i < kItems; ++i) sorted_keys[i] = s_.keys[order[i]];
      for (int i = 0; i < kItems; ++i) s_.keys.put(i, sorted_keys[i]);
      if constexpr (kPairs) {
        std::vector<Values> sorted_values(kItems);
        for (int i = 0; i < kItems; ++i) sorted_values[i] = s_.values[order[i]];
        for (int i = 0; i < kItems; ++i) s_.values.put(i, sorted_values[i]);
      }
    }
    __syncthreads();
    for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
      const int at = striped ? i * kThreads + rank_ : rank_ * ITEMS_PER_THREAD + i;
      keys[i] = s_.keys[at];
      if constexpr (kPairs) if (values != nullptr) (*values)[i] = s_.values[at];
    }
  }
  TempStorage& s_;
  int rank_;
};

}  // namespace cub
