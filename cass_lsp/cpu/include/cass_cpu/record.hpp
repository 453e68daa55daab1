// The record of what a program copies back from the device, for verification to compare element by
// element between an original and its translation (cass_lsp/verify/copies.py reads it).
//
// Only when CASS_CPU_COPY_RECORD_FD names a file descriptor the runner opened: each device-to-host
// copy appends a header line
//   copy <ordinal> line=<L> bytes=<N> type=<T> elem=<E> buffer=<B> offset=<O> size=<S> at=<A> kernel=<K> thread=<H>
// and then its N bytes. <T> is the host destination's element type (float, double, int32, ...) or
// "bytes" when the call site's pointer type does not tell; <B> is the source allocation's ordinal
// (0: not a device allocation), <S> its size and <A> the line of its allocation; <K> the last kernel
// launched with a pointer into it; <H> numbers the host threads in the order of their first copy (the
// order of copies from several threads is theirs, not the program's). CASS_CPU_COPY_RECORD_CAP bounds the bytes written: the copy that
// would pass it is written as "cap <ordinal> line=<L> bytes=<N> limit=<cap>" and nothing follows.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <map>
#include <mutex>
#include <type_traits>
#include <unistd.h>

namespace cass {
namespace record {

struct Allocation {
  std::size_t size;
  unsigned ordinal;
  int line;
  const char* kernel;  // the last kernel launched with a pointer into it
};

struct State {
  std::mutex mutex;
  std::map<std::uintptr_t, Allocation> allocations;
  unsigned allocated = 0;
  int fd = -1;
  unsigned long long cap = 0, written = 0;
  unsigned copies = 0;
  unsigned threads = 0;
  bool full = false;
  State() {
    const char* fd_text = std::getenv("CASS_CPU_COPY_RECORD_FD");
    const char* cap_text = std::getenv("CASS_CPU_COPY_RECORD_CAP");
    if (fd_text == nullptr) return;
    fd = static_cast<int>(std::strtol(fd_text, nullptr, 10));
    cap = cap_text != nullptr ? std::strtoull(cap_text, nullptr, 10) : 0;
  }
};

inline State& state() {
  static State s;
  return s;
}

inline bool recording() { return state().fd >= 0; }

// The allocation holding p (its base and record), or allocations.end().
inline std::map<std::uintptr_t, Allocation>::iterator holding(State& s, const void* p) {
  auto address = reinterpret_cast<std::uintptr_t>(p);
  auto it = s.allocations.upper_bound(address);
  if (it == s.allocations.begin()) return s.allocations.end();
  --it;
  return address < it->first + it->second.size ? it : s.allocations.end();
}

inline void allocated(void* p, std::size_t size, int line) {
  if (p == nullptr || !recording()) return;
  State& s = state();
  std::lock_guard<std::mutex> hold(s.mutex);
  s.allocations[reinterpret_cast<std::uintptr_t>(p)] = Allocation{size, ++s.allocated, line, nullptr};
}

inline void freed(void* p) {
  if (p == nullptr || !recording()) return;
  State& s = state();
  std::lock_guard<std::mutex> hold(s.mutex);
  s.allocations.erase(reinterpret_cast<std::uintptr_t>(p));
}

inline bool is_device(const void* p) {
  if (!recording()) return false;
  State& s = state();
  std::lock_guard<std::mutex> hold(s.mutex);
  return holding(s, p) != s.allocations.end();
}

template <class A>
inline void note_argument(State& s, const char* kernel, const A& argument) {
  // object pointers only (volatile ones too): a function pointer points into no allocation
  if constexpr (std::is_pointer_v<A> && !std::is_function_v<std::remove_pointer_t<A>>) {
    auto it = holding(s, const_cast<const void*>(reinterpret_cast<const volatile void*>(argument)));
    if (it != s.allocations.end()) it->second.kernel = kernel;
  }
}

// A launch of `kernel` with these arguments: the allocations they point into were last written by it
// (as far as the record can tell: a pointer inside a struct argument is not seen).
template <class... A>
inline void launched(const char* kernel, const A&... arguments) {
  if (!recording()) return;
  State& s = state();
  std::lock_guard<std::mutex> hold(s.mutex);
  (note_argument(s, kernel, arguments), ...);
}

// The element type the record names for a host buffer of T; "bytes" where it is no number.
template <class T>
constexpr const char* element_name() {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_same_v<U, float>) return "float";
  else if constexpr (std::is_same_v<U, double>) return "double";
  else if constexpr (std::is_integral_v<U> && !std::is_same_v<U, bool>) {
    if constexpr (sizeof(U) == 1) return std::is_signed_v<U> ? "int8" : "uint8";
    else if constexpr (sizeof(U) == 2) return std::is_signed_v<U> ? "int16" : "uint16";
    else if constexpr (sizeof(U) == 4) return std::is_signed_v<U> ? "int32" : "uint32";
    else return std::is_signed_v<U> ? "int64" : "uint64";
  } else return "bytes";
}

// The vector types (float2, float4, ...) have a member x of their component type; others are bytes.
template <class T, class = void>
struct Component {
  static constexpr const char* name = element_name<T>();
};
template <class T>
struct Component<T, std::void_t<decltype(std::declval<T>().x)>> {
  using X = std::remove_cv_t<std::remove_reference_t<decltype(std::declval<T>().x)>>;
  static constexpr bool whole = std::is_arithmetic_v<X> && sizeof(T) % sizeof(X) == 0 &&
                                std::is_trivially_copyable_v<T> && !std::is_same_v<X, bool>;
  static constexpr const char* name = whole ? element_name<X>() : "bytes";
};
template <class T>
constexpr const char* type_of() {
  return Component<std::remove_all_extents_t<T>>::name;
}

inline bool write_all(int fd, const void* data, std::size_t n) {
  const char* p = static_cast<const char*>(data);
  while (n > 0) {
    ssize_t w = ::write(fd, p, n);
    if (w <= 0) return false;
    p += w;
    n -= static_cast<std::size_t>(w);
  }
  return true;
}

// Whether a copy of this kind from src to dst brings device memory to the host.
inline bool to_host(const void* dst, const void* src, int kind) {
  constexpr int device_to_host = 2, by_address = 4;  // cudaMemcpyKind
  if (!recording()) return false;
  return kind == device_to_host || (kind == by_address && is_device(src) && !is_device(dst));
}

// One copy from device memory at src: `rows` rows of `width` bytes, `pitch` apart (read after the
// copy, which left src as it was).
inline void copied(const void* src, std::size_t width, std::size_t pitch, std::size_t rows, const char* type, int line) {
  if (!recording()) return;
  State& s = state();
  std::lock_guard<std::mutex> hold(s.mutex);
  if (s.full) return;
  unsigned ordinal = ++s.copies;
  static thread_local unsigned thread = 0;
  if (thread == 0) thread = ++s.threads;
  std::size_t n = width * rows;
  char header[512];
  auto it = holding(s, src);
  bool known = it != s.allocations.end();
  int length;
  if (s.written + n + sizeof header > s.cap) {
    length = std::snprintf(header, sizeof header, "cap %u line=%d bytes=%zu limit=%llu\n", ordinal, line, n, s.cap);
    s.full = true;
    rows = 0;
  } else {
    length = std::snprintf(header, sizeof header, "copy %u line=%d bytes=%zu type=%s buffer=%u offset=%zu size=%zu at=%d kernel=%s thread=%u\n",
                           ordinal, line, n, type, known ? it->second.ordinal : 0u,
                           known ? static_cast<std::size_t>(reinterpret_cast<std::uintptr_t>(src) - it->first) : 0,
                           known ? it->second.size : 0, known ? it->second.line : 0,
                           known && it->second.kernel != nullptr ? it->second.kernel : "-", thread);
  }
  bool whole = length >= 0 && write_all(s.fd, header, static_cast<std::size_t>(length));
  for (std::size_t r = 0; whole && r < rows; ++r) whole = write_all(s.fd, static_cast<const char*>(src) + r * pitch, width);
  if (!whole) {
    s.full = true;  // a record that lost a write cannot be compared; the reader sees it end early
    return;
  }
  s.written += static_cast<unsigned long long>(length) + (rows == 0 ? 0 : n);
}

}  // namespace record
}  // namespace cass
