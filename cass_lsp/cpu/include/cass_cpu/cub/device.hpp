// CUB's device-wide algorithms on the CPU runtime: the two-phase temporary-storage API (a first call
// with d_temp_storage == nullptr sizes it), run at the call on the host (device memory is host
// memory; streams are synchronous), with CUB's results: stable radix sorts by the bits asked for,
// empty ranges giving the operator's identity, rejected partition items reversed at the back.
#pragma once
#include "util.hpp"

namespace cub {
namespace detail {

template <class KeyIn, class KeyOut, class ValIn, class ValOut>
void radix_sort(KeyIn keys_in, KeyOut keys_out, ValIn values_in, ValOut values_out, std::size_t n, int begin_bit,
                int end_bit, bool descending) {
  using K = value_t<KeyIn>;
  std::vector<K> keys(keys_in, keys_in + n);
  const auto order = radix_order(n, [&](std::size_t i) { return keys[i]; }, begin_bit, end_bit, descending);
  if constexpr (!std::is_same_v<ValIn, NullType*>) {
    std::vector<value_t<ValIn>> values(values_in, values_in + n);
    for (std::size_t i = 0; i < n; ++i) values_out[i] = values[order[i]];
  }
  for (std::size_t i = 0; i < n; ++i) keys_out[i] = keys[order[i]];
}

template <class K, class V>
void radix_sort_buffers(DoubleBuffer<K>& keys, DoubleBuffer<V>* values, std::size_t n, int begin_bit, int end_bit,
                        bool descending) {
  if (values != nullptr) {
    radix_sort(keys.Current(), keys.Alternate(), values->Current(), values->Alternate(), n, begin_bit, end_bit,
               descending);
    values->selector ^= 1;
  } else {
    radix_sort(keys.Current(), keys.Alternate(), static_cast<NullType*>(nullptr), static_cast<NullType*>(nullptr), n,
               begin_bit, end_bit, descending);
  }
  keys.selector ^= 1;
}

template <class KeyIn, class KeyOut, class ValIn, class ValOut, class BeginIt, class EndIt>
void segmented_radix_sort(KeyIn keys_in, KeyOut keys_out, ValIn values_in, ValOut values_out, long long num_segments,
                          BeginIt begins, EndIt ends, int begin_bit, int end_bit, bool descending) {
  for (long long s = 0; s < num_segments; ++s) {
    const auto b = begins[s], e = ends[s];
    if (e <= b) continue;
    if constexpr (std::is_same_v<ValIn, NullType*>) {
      radix_sort(keys_in + b, keys_out + b, values_in, values_out, std::size_t(e - b), begin_bit, end_bit, descending);
    } else {
      radix_sort(keys_in + b, keys_out + b, values_in + b, values_out + b, std::size_t(e - b), begin_bit, end_bit,
                 descending);
    }
  }
}

template <class In, class Out, class Op, class Acc>
void reduce_into(In in, Out out, std::size_t n, Op op, Acc acc) {
  for (std::size_t i = 0; i < n; ++i) acc = op(acc, in[i]);
  *out = acc;
}

template <class In, class Out, class Op>
void arg_extreme(In in, Out out, std::size_t n, Op op, value_t<In> empty) {
  using Pair = KeyValuePair<int, value_t<In>>;
  Pair best(1, empty);  // CUB's answer for an empty range
  for (std::size_t i = 0; i < n; ++i) best = i == 0 ? Pair(0, in[0]) : op(best, Pair(int(i), in[i]));
  value_t<Out> r;
  r.key = best.key;
  r.value = best.value;
  *out = r;
}

template <class In, class Out, class Op, class Acc>
void exclusive_scan(In in, Out out, std::size_t n, Op op, Acc acc) {
  for (std::size_t i = 0; i < n; ++i) {
    Acc next = op(acc, in[i]);  // read before the write: d_in may be d_out
    out[i] = acc;
    acc = next;
  }
}

template <class In, class Out, class Op>
void inclusive_scan(In in, Out out, std::size_t n, Op op) {
  if (n == 0) return;
  using Acc = std::decay_t<decltype(op(in[0], in[0]))>;
  Acc acc = in[0];
  out[0] = acc;
  for (std::size_t i = 1; i < n; ++i) {
    acc = op(acc, in[i]);
    out[i] = acc;
  }
}

template <class In, class Out, class Count, class Keep>
void select(In in, Out out, Count num_selected, std::size_t n, Keep keep) {
  std::size_t k = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (keep(i)) out[k++] = in[i];
  *num_selected = static_cast<value_t<Count>>(k);
}

template <class In, class Out, class Count, class Keep>
void partition(In in, Out out, Count num_selected, std::size_t n, Keep keep) {
  std::vector<value_t<In>> items(in, in + n);
  std::size_t front = 0, back = n;
  for (std::size_t i = 0; i < n; ++i) {
    if (keep(i, items[i])) out[front++] = items[i];
    else out[--back] = items[i];
  }
  *num_selected = static_cast<value_t<Count>>(front);
}

template <class Counter, class BinOf>
void histogram(Counter* hist, int num_levels, std::size_t n, BinOf bin_of) {
  const int bins = num_levels - 1;
  for (int b = 0; b < bins; ++b) hist[b] = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const long long b = bin_of(i);
    if (b >= 0 && b < bins) ++hist[b];
  }
}

template <class Sample, class Level>
long long even_bin(Sample s, int num_levels, Level lower, Level upper) {
  if (!(s >= lower && s < upper)) return -1;
  const long long bins = num_levels - 1;
  if constexpr (std::is_integral_v<Level> && std::is_integral_v<Sample>) {
    return static_cast<long long>((static_cast<long long>(s) - lower) * bins / (static_cast<long long>(upper) - lower));
  } else {
    const double scale = double(bins) / (double(upper) - double(lower));
    const long long b = static_cast<long long>((double(s) - double(lower)) * scale);
    return b < bins ? b : bins - 1;
  }
}

template <class Sample, class Level>
long long range_bin(Sample s, int num_levels, const Level* levels) {
  const Level* at = std::upper_bound(levels, levels + num_levels, s, [](const Sample& v, const Level& l) { return v < l; });
  return static_cast<long long>(at - levels) - 1;
}

// Sample i of a 2-D region (rows of num_row_samples, row_stride_bytes apart).
template <class It>
value_t<It> row_sample(It samples, std::size_t i, std::size_t num_row_samples, std::size_t row_stride_bytes) {
  const std::size_t row = i / num_row_samples, col = i % num_row_samples;
  const auto* base = reinterpret_cast<const unsigned char*>(&samples[0]) + row * row_stride_bytes;
  return reinterpret_cast<const value_t<It>*>(base)[col];
}

}  // namespace detail

#define CASS_CUB_SIZE_OR_RETURN                                                    \
  cudaError_t cass_status;                                                         \
  if (::cub::detail::sizing(d_temp_storage, temp_storage_bytes, cass_status)) return cass_status

struct DeviceRadixSort {
  template <class K, class N>
  static cudaError_t SortKeys(void* d_temp_storage, std::size_t& temp_storage_bytes, const K* d_keys_in, K* d_keys_out,
                              N num_items, int begin_bit = 0, int end_bit = sizeof(K) * 8, cudaStream_t = nullptr,
                              bool = false) {
    CASS_CUB_SIZE_OR_RETURN;
    detail::radix_sort(d_keys_in, d_keys_out, static_cast<NullType*>(nullptr), static_cast<NullType*>(nullptr),
                       std::size_t(num_items), begin_bit, end_bit, false);
    return cudaSuccess;
  }
  template <class K, class N>
  static cudaError_t SortKeysDescending(void* d_temp_storage, std::size_t& temp_storage_bytes, const K* d_keys_in,
                                        K* d_keys_out, N num_items, int begin_bit = 0, int end_bit = sizeof(K) * 8,
                                        cudaStream_t = nullptr, bool = false) {
    CASS_CUB_SIZE_OR_RETURN;
    detail::radix_sort(d_keys_in, d_keys_out, static_cast<NullType*>(nullptr), static_cast<NullType*>(nullptr),
                       std::size_t(num_items), begin_bit, end_bit, true);
    return cudaSuccess;
  }
  template <class K, class V, class N>
  static cudaError_t SortPairs(void* d_temp_storage, std::size_t& temp_storage_bytes, const K* d_keys_in, K* d_keys_out,
                               const V* d_values_in, V* d_values_out, N num_items, int begin_bit = 0,
                               int end_bit = sizeof(K) * 8, cudaStream_t = nullptr, bool = false) {
    CASS_CUB_SIZE_OR_RETURN;
    detail::radix_sort(d_keys_in, d_keys_out, d_values_in, d_values_out, std::size_t(num_items), begin_bit, end_bit,
                       false);
    return cudaSuccess;
  }
  template <class K, class V, class N>
  static cudaError_t SortPairsDescending(void* d_temp_storage, std::size_t& temp_storage_bytes, const K* d_keys_in,
                                         K* d_keys_out, const V* d_values_in, V* d_values_out, N num_items,
                                         int begin_bit = 0, int end_bit = sizeof(K) * 8, cudaStream_t = nullptr,
                                         bool = false) {
    CASS_CUB_SIZE_OR_RETURN;
    detail::radix_sort(d_keys_in, d_keys_out, d_values_in, d_values_out, std::size_t(num_items), begin_bit, end_bit,
                       true);
    return cudaSuccess;
  }
  template <class K, class N>
  static cudaError_t SortKeys(void* d_temp_storage, std::size_t& temp_storage_bytes, DoubleBuffer<K>& d_keys,
                              N num_items, int begin_bit = 0, int end_bit = sizeof(K) * 8, cudaStream_t = nullptr,
                              bool = false) {
    CASS_CUB_SIZE_OR_RETURN;
    detail::radix_sort_buffers<K, NullType>(d_keys, nullptr, std::size_t(num_items), begin_bit, end_bit, false);
    return cudaSuccess;
  }
  template <class K, class N>
  static cudaError_t SortKeysDescending(void* d_temp_storage, std::size_t& temp_storage_bytes, DoubleBuffer<K>& d_keys,
                                        N num_items, int begin_bit = 0, int end_bit = sizeof(K) * 8,
                                        cudaStream_t = nullptr, bool = false) {
    CASS_CUB_SIZE_OR_RETURN;
    detail::radix_sort_buffers<K, NullType>(d_keys, nullptr, std::size_t(num_items), begin_bit, end_bit, true);
    return cudaSuccess;
  }
  template <class K, class V, class N>
  static cudaError_t SortPairs(void* d_temp_storage, std::size_t& temp_storage_bytes, DoubleBuffer<K>& d_keys,
                               DoubleBuffer<V>& d_values, N num_items, int begin_bit = 0, int end_bit = sizeof(K) * 8,
                               cudaStream_t = nullptr, bool = false) {
    CASS_CUB_SIZE_OR_RETURN;
    detail::radix_sort_buffers(d_keys, &d_values, std::size_t(num_items), begin_bit, end_bit, false);
    return cudaSuccess;
  }
  template <class K, class V, class N>
  static cudaError_t SortPairsDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                         DoubleBuffer<K>& d_keys, DoubleBuffer<V>& d_values, N num_items,
                                         int begin_bit = 0, int end_bit = sizeof(K) * 8, cudaStream_t = nullptr,
                                         bool = false) {
    CASS_CUB_SIZE_OR_RETURN;
    detail::radix_sort_buffers(d_keys, &d_values, std::size_t(num_items), begin_bit, end_bit, true);
    return cudaSuccess;
  }
};

struct DeviceSegmentedRadixSort {
  template <class K, class B, class E>
  static cudaError_t SortKeys(void* d_temp_storage, std::size_t& temp_storage_bytes, const K* d_keys_in, K* d_keys_out,
                              long long, long long num_segments, B d_begin_offsets, E d_end_offsets, int begin_bit = 0,
                              int end_bit = sizeof(K) * 8, cudaStream_t = nullptr, bool = false) {
    CASS_CUB_SIZE_OR_RETURN;
    detail::segmented_radix_sort(d_keys_in, d_keys_out, static_cast<NullType*>(nullptr),
                                 static_cast<NullType*>(nullptr), num_segments, d_begin_offsets, d_end_offsets,
                                 begin_bit, end_bit, false);
    return cudaSuccess;
  }
  template <class K, class B, class E>
  static cudaError_t SortKeysDescending(void* d_temp_storage, std::size_t& temp_storage_bytes, const K* d_keys_in,
                                        K* d_keys_out, long long, long long num_segments, B d_begin_offsets,
                                        E d_end_offsets, int begin_bit = 0, int end_bit = sizeof(K) * 8,
                                        cudaStream_t = nullptr, bool = false) {
    CASS_CUB_SIZE_OR_RETURN;
    detail::segmented_radix_sort(d_keys_in, d_keys_out, static_cast<NullType*>(nullptr),
                                 static_cast<NullType*>(nullptr), num_segments, d_begin_offsets, d_end_offsets,
                                 begin_bit, end_bit, true);
    return cudaSuccess;
  }
  template <class K, class V, class B, class E>
  static cudaError_t SortPairs(void* d_temp_storage, std::size_t& temp_storage_bytes, const K* d_keys_in, K* d_keys_out,
                               const V* d_values_in, V* d_values_out, long long, long long num_segments,
                               B d_begin_offsets, E d_end_offsets, int begin_bit = 0, int end_bit = sizeof(K) * 8,
                               cudaStream_t = nullptr, bool = false) {
    CASS_CUB_SIZE_OR_RETURN;
    detail::segmented_radix_sort(d_keys_in, d_keys_out, d_values_in, d_values_out, num_segments, d_begin_offsets,
                                 d_end_offsets, begin_bit, end_bit, false);
    return cudaSuccess;
  }
  template <class K, class V, class B, class E>
  static cudaError_t SortPairsDescending(void* d_temp_storage, std::size_t& temp_storage_bytes, const K* d_keys_in,
                                         K* d_keys_out, const V* d_values_in, V* d_values_out, long long,
                                         long long num_segments, B d_begin_offsets, E d_end_offsets, int begin_bit = 0,
                                         int end_bit = sizeof(K) * 8, cudaStream_t = nullptr, bool = false) {
    CASS_CUB_SIZE_OR_RETURN;
    detail::segmented_radix_sort(d_keys_in, d_keys_out, d_values_in, d_values_out, num_segments, d_begin_offsets,
                                 d_end_offsets, begin_bit, end_bit, true);
    return cudaSuccess;
  }
};

struct DeviceScan {
  template <class In, class Out, class N>
  static cudaError_t ExclusiveSum(void* d_temp_storage, std::size_t& temp_storage_bytes, In d_in, Out d_out,
                                  N num_items, cudaStream_t = nullptr, bool = false) {
    CASS_CUB_SIZE_OR_RETURN;
    detail::exclusive_scan(d_in, d_out, std::size_t(num_items), Sum(), detail::value_t<In>{});
    return cudaSuccess;
  }
  template <class In, class Out, class N>
  static cudaError_t InclusiveSum(void* d_temp_storage, std::size_t& temp_storage_bytes, In d_in, Out d_out,
                                  N num_items, cudaStream_t = nullptr, bool = false) {
    CASS_CUB_SIZE_OR_RETURN;
    detail::inclusive_scan(d_in, d_out, std::size_t(num_items), Sum());
    return cudaSuccess;
  }
  template <class In, class Out, class Op, class Init, class N>
  static cudaError_t ExclusiveScan(void* d_temp_storage, std::size_t& temp_storage_bytes, In d_in, Out d_out,
                                   Op scan_op, Init init_value, N num_items, cudaStream_t = nullptr, bool = false) {
    CASS_CUB_SIZE_OR_RETURN;
    using Acc = std::decay_t<decltype(scan_op(init_value, d_in[0]))>;
    detail::exclusive_scan(d_in, d_out, std::size_t(num_items), scan_op, Acc(init_value));
    return cudaSuccess;
  }
  template <class In, class Out, class Op, class N>
  static cudaError_t InclusiveScan(void* d_temp_storage, std::size_t& temp_storage_bytes, In d_in, Out d_out,
                                   Op scan_op, N num_items, cudaStream_t = nullptr, bool = false) {
    CASS_CUB_SIZE_OR_RETURN;
    detail::inclusive_scan(d_in, d_out, std::size_t(num_items), scan_op);
    return cudaSuccess;
  }
  template <class In, class Out, class Op, class Init, class N>
  static cudaError_t InclusiveScanInit(void* d_temp_storage, std::size_t& temp_storage_bytes, In d_in, Out d_out,
                                       Op scan_op, Init init_value, N num_items, cudaStream_t = nullptr) {
    CASS_CUB_SIZE_OR_RETURN;
    using Acc = std::decay_t<decltype(scan_op(init_value, d_in[0]))>;
    Acc acc(init_value);
    for (std::size_t i = 0; i < std::size_t(num_items); ++i) d_out[i] = acc = scan_op(acc, d_in[i]);
    return cudaSuccess;
  }
};

struct DeviceReduce {
  template <class In, class Out, class N, class Op, class T>
  static cudaError_t Reduce(void* d_temp_storage, std::size_t& temp_storage_bytes, In d_in, Out d_out, N num_items,
                            Op reduction_op, T init, cudaStream_t = nullptr, bool = false) {
    CASS_CUB_SIZE_OR_RETURN;
    using Acc = std::decay_t<decltype(reduction_op(init, d_in[0]))>;
    detail::reduce_into(d_in, d_out, std::size_t(num_items), reduction_op, Acc(init));
    return cudaSuccess;
  }
  template <class In, class Out, class N>
  static cudaError_t Sum(void* d_temp_storage, std::size_t& temp_storage_bytes, In d_in, Out d_out, N num_items,
                         cudaStream_t = nullptr, bool = false) {
    CASS_CUB_SIZE_OR_RETURN;
    detail::reduce_into(d_in, d_out, std::size_t(num_items), ::cub::Sum(), detail::output_t<Out, In>{});
    return cudaSuccess;
  }
  template <class In, class Out, class N>
  static cudaError_t Min(void* d_temp_storage, std::size_t& temp_storage_bytes, In d_in, Out d_out, N num_items,
                         cudaStream_t = nullptr, bool = false) {
    CASS_CUB_SIZE_OR_RETURN;
    detail::reduce_into(d_in, d_out, std::size_t(num_items), ::cub::Min(),
                        std::numeric_limits<detail::value_t<In>>::max());
    return cudaSuccess;
  }
  template <class In, class Out, class N>
  static cudaError_t Max(void* d_temp_storage, std::size_t& temp_storage_bytes, In d_in, Out d_out, N num_items,
                         cudaStream_t = nullptr, bool = false) {
    CASS_CUB_SIZE_OR_RETURN;
    detail::reduce_into(d_in, d_out, std::size_t(num_items), ::cub::Max(),
                        std::numeric_limits<detail::value_t<In>>::lowest());
    return cudaSuccess;
  }
  template <class In, class Out, class N>
  static cudaError_t ArgMin(void* d_temp_storage, std::size_t& temp_storage_bytes, In d_in, Out d_out, N num_items,
                            cudaStream_t = nullptr, bool = false) {
    CASS_CUB_SIZE_OR_RETURN;
    detail::arg_extreme(d_in, d_out, std::size_t(num_items), ::cub::ArgMin(),
                        std::numeric_limits<detail::value_t<In>>::max());
    return cudaSuccess;
  }
  template <class In, class Out, class N>
  static cudaError_t ArgMax(void* d_temp_storage, std::size_t& temp_storage_bytes, In d_in, Out d_out, N num_items,
                            cudaStream_t = nullptr, bool = false) {
    CASS_CUB_SIZE_OR_RETURN;
    detail::arg_extreme(d_in, d_out, std::size_t(num_items), ::cub::ArgMax(),
                        std::numeric_limits<detail::value_t<In>>::lowest());
    return cudaSuccess;
  }
};

struct DeviceSegmentedReduce {
  template <class In, class Out, class B, class E, class Op, class T>
  static cudaError_t Reduce(void* d_temp_storage, std::size_t& temp_storage_bytes, In d_in, Out d_out,
                            long long num_segments, B d_begin_offsets, E d_end_offsets, Op reduction_op, T init,
                            cudaStream_t = nullptr, bool = false) {
    CASS_CUB_SIZE_OR_RETURN;
    using Acc = std::decay_t<decltype(reduction_op(init, d_in[0]))>;
    for (long long s = 0; s < num_segments; ++s)
      detail::reduce_into(d_in + d_begin_offsets[s], d_out + s, segment_size(d_begin_offsets[s], d_end_offsets[s]),
                          reduction_op, Acc(init));
    return cudaSuccess;
  }
  template <class In, class Out, class B, class E>
  static cudaError_t Sum(void* d_temp_storage, std::size_t& temp_storage_bytes, In d_in, Out d_out,
                         long long num_segments, B d_begin_offsets, E d_end_offsets, cudaStream_t stream = nullptr,
                         bool = false) {
    return Reduce(d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments, d_begin_offsets, d_end_offsets,
                  ::cub::Sum(), detail::output_t<Out, In>{}, stream);
  }
  template <class In, class Out, class B, class E>
  static cudaError_t Min(void* d_temp_storage, std::size_t& temp_storage_bytes, In d_in, Out d_out,
                         long long num_segments, B d_begin_offsets, E d_end_offsets, cudaStream_t stream = nullptr,
                         bool = false) {
    return Reduce(d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments, d_begin_offsets, d_end_offsets,
                  ::cub::Min(), std::numeric_limits<detail::value_t<In>>::max(), stream);
  }
  template <class In, class Out, class B, class E>
  static cudaError_t Max(void* d_temp_storage, std::size_t& temp_storage_bytes, In d_in, Out d_out,
                         long long num_segments, B d_begin_offsets, E d_end_offsets, cudaStream_t stream = nullptr,
                         bool = false) {
    return Reduce(d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments, d_begin_offsets, d_end_offsets,
                  ::cub::Max(), std::numeric_limits<detail::value_t<In>>::lowest(), stream);
  }
  template <class In, class Out, class B, class E>
  static cudaError_t ArgMin(void* d_temp_storage, std::size_t& temp_storage_bytes, In d_in, Out d_out,
                            long long num_segments, B d_begin_offsets, E d_end_offsets, cudaStream_t = nullptr,
                            bool = false) {
    CASS_CUB_SIZE_OR_RETURN;
    for (long long s = 0; s < num_segments; ++s)
      detail::arg_extreme(d_in + d_begin_offsets[s], d_out + s, segment_size(d_begin_offsets[s], d_end_offsets[s]),
                          ::cub::ArgMin(), std::numeric_limits<detail::value_t<In>>::max());
    return cudaSuccess;
  }
  template <class In, class Out, class B, class E>
  static cudaError_t ArgMax(void* d_temp_storage, std::size_t& temp_storage_bytes, In d_in, Out d_out,
                            long long num_segments, B d_begin_offsets, E d_end_offsets, cudaStream_t = nullptr,
                            bool = false) {
    CASS_CUB_SIZE_OR_RETURN;
    for (long long s = 0; s < num_segments; ++s)
      detail::arg_extreme(d_in + d_begin_offsets[s], d_out + s, segment_size(d_begin_offsets[s], d_end_offsets[s]),
                          ::cub::ArgMax(), std::numeric_limits<detail::value_t<In>>::lowest());
    return cudaSuccess;
  }

 private:
  template <class O>
  static std::size_t segment_size(O begin, O end) { return end > begin ? std::size_t(end - begin) : 0; }
};

struct DeviceSelect {
  template <class In, class Out, class Count, class N, class Op>
  static cudaError_t If(void* d_temp_storage, std::size_t& temp_storage_bytes, In d_in, Out d_out,
                        Count d_num_selected_out, N num_items, Op select_op, cudaStream_t = nullptr, bool = false) {
    CASS_CUB_SIZE_OR_RETURN;
    detail::select(d_in, d_out, d_num_selected_out, std::size_t(num_items),
                   [&](std::size_t i) { return bool(select_op(d_in[i])); });
    return cudaSuccess;
  }
  template <class In, class Flags, class Out, class Count, class N>
  static cudaError_t Flagged(void* d_temp_storage, std::size_t& temp_storage_bytes, In d_in, Flags d_flags, Out d_out,
                             Count d_num_selected_out, N num_items, cudaStream_t = nullptr, bool = false) {
    CASS_CUB_SIZE_OR_RETURN;
    detail::select(d_in, d_out, d_num_selected_out, std::size_t(num_items),
                   [&](std::size_t i) { return bool(d_flags[i]); });
    return cudaSuccess;
  }
  template <class In, class Out, class Count, class N>
  static cudaError_t Unique(void* d_temp_storage, std::size_t& temp_storage_bytes, In d_in, Out d_out,
                            Count d_num_selected_out, N num_items, cudaStream_t = nullptr, bool = false) {
    CASS_CUB_SIZE_OR_RETURN;
    detail::select(d_in, d_out, d_num_selected_out, std::size_t(num_items),
                   [&](std::size_t i) { return i == 0 || !(d_in[i] == d_in[i - 1]); });
    return cudaSuccess;
  }
};

struct DevicePartition {
  template <class In, class Out, class Count, class N, class Op>
  static cudaError_t If(void* d_temp_storage, std::size_t& temp_storage_bytes, In d_in, Out d_out,
                        Count d_num_selected_out, N num_items, Op select_op, cudaStream_t = nullptr, bool = false) {
    CASS_CUB_SIZE_OR_RETURN;
    detail::partition(d_in, d_out, d_num_selected_out, std::size_t(num_items),
                      [&](std::size_t, const auto& item) { return bool(select_op(item)); });
    return cudaSuccess;
  }
  template <class In, class Flags, class Out, class Count, class N>
  static cudaError_t Flagged(void* d_temp_storage, std::size_t& temp_storage_bytes, In d_in, Flags d_flags, Out d_out,
                             Count d_num_selected_out, N num_items, cudaStream_t = nullptr, bool = false) {
    CASS_CUB_SIZE_OR_RETURN;
    detail::partition(d_in, d_out, d_num_selected_out, std::size_t(num_items),
                      [&](std::size_t i, const auto&) { return bool(d_flags[i]); });
    return cudaSuccess;
  }
};

struct DeviceHistogram {
  template <class Samples, class Counter, class Level, class N>
  static cudaError_t HistogramEven(void* d_temp_storage, std::size_t& temp_storage_bytes, Samples d_samples,
                                   Counter* d_histogram, int num_levels, Level lower_level, Level upper_level,
                                   N num_samples, cudaStream_t = nullptr, bool = false) {
    CASS_CUB_SIZE_OR_RETURN;
    detail::histogram(d_histogram, num_levels, std::size_t(num_samples), [&](std::size_t i) {
      return detail::even_bin(d_samples[i], num_levels, lower_level, upper_level);
    });
    return cudaSuccess;
  }
  template <class Samples, class Counter, class Level, class N>
  static cudaError_t HistogramEven(void* d_temp_storage, std::size_t& temp_storage_bytes, Samples d_samples,
                                   Counter* d_histogram, int num_levels, Level lower_level, Level upper_level,
                                   N num_row_samples, N num_rows, std::size_t row_stride_bytes, cudaStream_t = nullptr,
                                   bool = false) {
    CASS_CUB_SIZE_OR_RETURN;
    const std::size_t per_row = std::size_t(num_row_samples);
    detail::histogram(d_histogram, num_levels, per_row * std::size_t(num_rows), [&](std::size_t i) {
      return detail::even_bin(detail::row_sample(d_samples, i, per_row, row_stride_bytes), num_levels, lower_level,
                              upper_level);
    });
    return cudaSuccess;
  }
  template <class Samples, class Counter, class Level, class N>
  static cudaError_t HistogramRange(void* d_temp_storage, std::size_t& temp_storage_bytes, Samples d_samples,
                                    Counter* d_histogram, int num_levels, const Level* d_levels, N num_samples,
                                    cudaStream_t = nullptr, bool = false) {
    CASS_CUB_SIZE_OR_RETURN;
    detail::histogram(d_histogram, num_levels, std::size_t(num_samples),
                      [&](std::size_t i) { return detail::range_bin(d_samples[i], num_levels, d_levels); });
    return cudaSuccess;
  }
  template <class Samples, class Counter, class Level, class N>
  static cudaError_t HistogramRange(void* d_temp_storage, std::size_t& temp_storage_bytes, Samples d_samples,
                                    Counter* d_histogram, int num_levels, const Level* d_levels, N num_row_samples,
                                    N num_rows, std::size_t row_stride_bytes, cudaStream_t = nullptr, bool = false) {
    CASS_CUB_SIZE_OR_RETURN;
    const std::size_t per_row = std::size_t(num_row_samples);
    detail::histogram(d_histogram, num_levels, per_row * std::size_t(num_rows), [&](std::size_t i) {
      return detail::range_bin(detail::row_sample(d_samples, i, per_row, row_stride_bytes), num_levels, d_levels);
    });
    return cudaSuccess;
  }
};

struct DeviceRunLengthEncode {
  template <class In, class Unique, class Counts, class Runs, class N>
  static cudaError_t Encode(void* d_temp_storage, std::size_t& temp_storage_bytes, In d_in, Unique d_unique_out,
                            Counts d_counts_out, Runs d_num_runs_out, N num_items, cudaStream_t = nullptr,
                            bool = false) {
    CASS_CUB_SIZE_OR_RETURN;
    const std::size_t n = std::size_t(num_items);
    std::size_t runs = 0;
    for (std::size_t i = 0, start = 0; i < n; ++i) {
      if (i + 1 == n || !(d_in[i + 1] == d_in[i])) {
        d_unique_out[runs] = d_in[i];
        d_counts_out[runs++] = static_cast<detail::value_t<Counts>>(i + 1 - start);
        start = i + 1;
      }
    }
    *d_num_runs_out = static_cast<detail::value_t<Runs>>(runs);
    return cudaSuccess;
  }
  template <class In, class Offsets, class Lengths, class Runs, class N>
  static cudaError_t NonTrivialRuns(void* d_temp_storage, std::size_t& temp_storage_bytes, In d_in,
                                    Offsets d_offsets_out, Lengths d_lengths_out, Runs d_num_runs_out, N num_items,
                                    cudaStream_t = nullptr, bool = false) {
    CASS_CUB_SIZE_OR_RETURN;
    const std::size_t n = std::size_t(num_items);
    std::size_t runs = 0;
    for (std::size_t i = 0, start = 0; i < n; ++i) {
      if (i + 1 == n || !(d_in[i + 1] == d_in[i])) {
        if (i > start) {
          d_offsets_out[runs] = static_cast<detail::value_t<Offsets>>(start);
          d_lengths_out[runs++] = static_cast<detail::value_t<Lengths>>(i + 1 - start);
        }
        start = i + 1;
      }
    }
    *d_num_runs_out = static_cast<detail::value_t<Runs>>(runs);
    return cudaSuccess;
  }
};

#undef CASS_CUB_SIZE_OR_RETURN

}  // namespace cub
