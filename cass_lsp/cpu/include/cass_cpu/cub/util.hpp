// CUB/hipCUB on the CPU runtime: operators, pairs, buffers and the allocator every part shares.
// One implementation serves `cub::` (cub/*.cuh) and `hipcub::` (hipcub/*.hpp, an alias of it), so a
// CUDA program and its HIP translation run the same algorithms.
// What namespace cub declares outside its detail namespace, across these headers, is what the refusal
// scan lets a program use (cass_lsp/cpu/declared.py reads it); any other cub:: name is refused.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstring>
#include <iterator>
#include <limits>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

#include "../runtime.hpp"

#ifndef CUB_MAX
#define CUB_MAX(a, b) (((b) > (a)) ? (b) : (a))
#define CUB_MIN(a, b) (((b) < (a)) ? (b) : (a))
#endif
#define CUB_PTX_WARP_THREADS CASS_CPU_WARP_SIZE
#define HIPCUB_DEVICE_WARP_THREADS CASS_CPU_WARP_SIZE
#define HIPCUB_WARP_THREADS CASS_CPU_WARP_SIZE
#define CubDebug(e) (e)
#define HipcubDebug(e) (e)
#define CubDebugExit(e)                                                                                   \
  do {                                                                                                    \
    if (::cudaError_t cass_cub_error = (e)) {                                                             \
      std::fprintf(stderr, "CubDebugExit: %s at %s:%d\n", cudaGetErrorString(cass_cub_error), __FILE__, __LINE__); \
      std::exit(1);                                                                                       \
    }                                                                                                     \
  } while (0)

namespace cub {

struct NullType {};

struct Sum {
  template <class T, class U>
  auto operator()(const T& a, const U& b) const -> decltype(a + b) { return a + b; }
};
struct Max {
  template <class T, class U>
  std::common_type_t<T, U> operator()(const T& a, const U& b) const { return CUB_MAX(a, b); }
};
struct Min {
  template <class T, class U>
  std::common_type_t<T, U> operator()(const T& a, const U& b) const { return CUB_MIN(a, b); }
};
struct Equality {
  template <class T, class U>
  bool operator()(const T& a, const U& b) const { return a == b; }
};
struct Inequality {
  template <class T, class U>
  bool operator()(const T& a, const U& b) const { return a != b; }
};

template <class K, class V>
struct KeyValuePair {
  using Key = K;
  using Value = V;
  K key;
  V value;
  KeyValuePair() = default;
  KeyValuePair(const K& k, const V& v) : key(k), value(v) {}
  bool operator==(const KeyValuePair& b) const { return key == b.key && value == b.value; }
  bool operator!=(const KeyValuePair& b) const { return !(*this == b); }
};

// CUB's tie rule: the smaller key (the earlier offset) wins among equal values.
struct ArgMin {
  template <class K, class V>
  KeyValuePair<K, V> operator()(const KeyValuePair<K, V>& a, const KeyValuePair<K, V>& b) const {
    return (b.value < a.value || (a.value == b.value && b.key < a.key)) ? b : a;
  }
};
struct ArgMax {
  template <class K, class V>
  KeyValuePair<K, V> operator()(const KeyValuePair<K, V>& a, const KeyValuePair<K, V>& b) const {
    return (b.value > a.value || (a.value == b.value && b.key < a.key)) ? b : a;
  }
};

template <class T>
struct DoubleBuffer {
  T* d_buffers[2];
  int selector;
  DoubleBuffer() : d_buffers{nullptr, nullptr}, selector(0) {}
  DoubleBuffer(T* current, T* alternate) : d_buffers{current, alternate}, selector(0) {}
  T* Current() { return d_buffers[selector]; }
  T* Alternate() { return d_buffers[selector ^ 1]; }
};

// Device memory is host memory here: the cache is the heap's.
struct CachingDeviceAllocator {
  static constexpr unsigned INVALID_BIN = ~0u;
  static constexpr std::size_t INVALID_SIZE = ~std::size_t(0);
  static constexpr int INVALID_DEVICE_ORDINAL = -1;
  explicit CachingDeviceAllocator(unsigned = 8, unsigned = 3, unsigned = INVALID_BIN, std::size_t = INVALID_SIZE,
                                  bool = false, bool = false) {}
  explicit CachingDeviceAllocator(bool, bool = false) {}
  cudaError_t DeviceAllocate(int, void** d_ptr, std::size_t bytes, cudaStream_t = nullptr) {
    return cudaMalloc(d_ptr, bytes);
  }
  cudaError_t DeviceAllocate(void** d_ptr, std::size_t bytes, cudaStream_t = nullptr) { return cudaMalloc(d_ptr, bytes); }
  cudaError_t DeviceFree(int, void* d_ptr) { return cudaFree(d_ptr); }
  cudaError_t DeviceFree(void* d_ptr) { return cudaFree(d_ptr); }
  cudaError_t FreeAllCached() { return cudaSuccess; }
  cudaError_t SetMaxCachedBytes(std::size_t) { return cudaSuccess; }
};

namespace detail {

// What a first call with d_temp_storage == nullptr asks for. A later call with less is refused as
// CUB refuses it (cudaErrorInvalidValue), so a size lost on the way shows.
constexpr std::size_t kTempBytes = 256;

// True when this call only sizes the temporary storage (the caller returns `status`).
inline bool sizing(const void* d_temp_storage, std::size_t& temp_storage_bytes, cudaError_t& status) {
  status = cudaSuccess;
  if (d_temp_storage == nullptr) {
    temp_storage_bytes = kTempBytes;
    return true;
  }
  if (temp_storage_bytes < kTempBytes) {
    status = cudaErrorInvalidValue;
    return true;
  }
  return false;
}

template <class It>
using value_t = std::remove_cv_t<typename std::iterator_traits<It>::value_type>;

// The type an output iterator holds, or the input's when it holds none (an output-only iterator).
template <class Out, class In>
using output_t = std::conditional_t<std::is_void_v<value_t<Out>>, value_t<In>, value_t<Out>>;

// Storage for a block's or warp's items in `__shared__` TempStorage: raw bytes, so that T needs no
// default constructor and a thread_local TempStorage costs nothing to create.
template <class T, std::size_t N>
struct Slots {
  alignas(T) unsigned char bytes[sizeof(T) * N];
  T& operator[](std::size_t i) { return *std::launder(reinterpret_cast<T*>(bytes) + i); }
  void put(std::size_t i, const T& v) { new (reinterpret_cast<T*>(bytes) + i) T(v); }
};

// The bits radix sort orders by: unsigned, with signed and floating keys' order kept (CUB's twiddle).
template <class K>
auto radix_bits(K key) {
  static_assert(std::is_arithmetic_v<K>, "the CPU runtime's CUB radix-sorts arithmetic keys only");
  using U = std::conditional_t<sizeof(K) == 1, unsigned char,
            std::conditional_t<sizeof(K) == 2, unsigned short,
            std::conditional_t<sizeof(K) == 4, unsigned, unsigned long long>>>;
  U u;
  std::memcpy(&u, &key, sizeof u);
  constexpr U high = U(U(1) << (sizeof(U) * 8 - 1));
  if constexpr (std::is_floating_point_v<K>) {
    u = (u & high) ? U(~u) : U(u | high);
  } else if constexpr (std::is_signed_v<K>) {
    u = U(u ^ high);
  }
  return u;
}

template <class K>
unsigned long long radix_digit(K key, int begin_bit, int end_bit) {
  unsigned long long u = radix_bits(key);
  const int width = end_bit - begin_bit;
  if (begin_bit > 0) u = begin_bit >= 64 ? 0 : u >> begin_bit;
  if (width < 64) u &= (1ull << (width > 0 ? width : 0)) - 1;
  return u;
}

// The stable order of n keys by their bits [begin_bit, end_bit): the positions, sorted.
template <class KeyAt>
std::vector<std::size_t> radix_order(std::size_t n, KeyAt key_at, int begin_bit, int end_bit, bool descending) {
  std::vector<std::pair<unsigned long long, std::size_t>> digits(n);
  for (std::size_t i = 0; i < n; ++i) digits[i] = {radix_digit(key_at(i), begin_bit, end_bit), i};
  std::stable_sort(digits.begin(), digits.end(), [descending](const auto& a, const auto& b) {
    return descending ? a.first > b.first : a.first < b.first;
  });
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = digits[i].second;
  return order;
}

}  // namespace detail
}  // namespace cub
