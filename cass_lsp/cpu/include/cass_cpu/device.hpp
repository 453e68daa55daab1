// Device-side language: qualifiers, built-in variables, barriers, warp intrinsics, atomics.
#pragma once
#include <assert.h>  // as CUDA's headers do: device code may assert without including it
#include <cstring>
#include <ctime>
#include <errno.h>
#include <time.h>

#include "sched.hpp"

// Qualifiers. Device and host code are one C++ program here, so most qualifiers vanish.
#define __global__
#define __device__
#define __host__
#define __constant__
#define __managed__
#define __forceinline__ inline
// Empty rather than __attribute__((noinline)): libstdc++ spells __attribute__((__noinline__)).
#define __noinline__
#define __launch_bounds__(...)
#define __grid_constant__
#define __align__(n) __attribute__((aligned(n)))
#define __device_builtin__
#define __builtin_align__(n) __attribute__((aligned(n)))
#define __cudart_builtin__
#define CUDART_CB
// Blocks never share a worker thread while they run, so storage per OS thread is storage per block.
#define __shared__ static thread_local

// threadIdx, blockIdx, blockDim and gridDim are variables declared in sched.hpp.
static constexpr int warpSize = CASS_CPU_WARP_SIZE;

#if CASS_CPU_HIP
using cass_lanemask_t = unsigned long long;  // HIP: ballots and masks are 64-bit
#else
using cass_lanemask_t = unsigned int;  // CUDA: 32-bit, so a 64-wide warp loses the upper lanes
#endif

// ---- barriers and fences ------------------------------------------------------------------------
inline void __syncthreads() { ::cass::detail::block_barrier(0); }
inline int __syncthreads_count(int pred) { return static_cast<int>(::cass::detail::block_barrier(pred)); }
inline int __syncthreads_and(int pred) {
  unsigned arrived = 0;
  return ::cass::detail::block_barrier(pred, &arrived) == arrived;
}
inline int __syncthreads_or(int pred) { return ::cass::detail::block_barrier(pred) != 0; }
inline void __threadfence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence_block() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence_system() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __nanosleep(unsigned) { ::cass::detail::spin_hint(); }
// __trap ends the kernel with cudaErrorLaunchFailure (719), a failed assert with cudaErrorAssert
// (710); on the host they abort, as there.
[[noreturn]] inline void __trap() {
  if (::cass::detail::this_thread() == nullptr) std::abort();
  std::fflush(stdout);
  std::fprintf(stderr, "cass-cpu: __trap() called in kernel %s\n", ::cass::detail::this_thread()->block->launch->name);
  ::cass::detail::abort_kernel(719);
}
// glibc's assert calls __assert_fail; this definition (weak: the runtime is header-only) takes
// precedence over libc's. Device code gets CUDA's message and error, host code glibc's behaviour.
extern "C" __attribute__((weak, noreturn)) void __assert_fail(const char* expr, const char* file, unsigned int line,
                                                              const char* function) noexcept {
  const ::cass::detail::Fiber* f = ::cass::detail::this_thread();
  std::fflush(stdout);
  if (f == nullptr) {
    std::fprintf(stderr, "%s: %s:%u: %s: Assertion `%s' failed.\n", program_invocation_short_name, file, line,
                 function, expr);
    std::fflush(stderr);
    std::abort();
  }
  std::fprintf(stderr, "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.\n", file, line,
               function, f->block->idx.x, f->block->idx.y, f->block->idx.z, f->tid.x, f->tid.y, f->tid.z, expr);
  std::fflush(stderr);
  ::cass::detail::abort_kernel(710);
}
[[noreturn]] inline void __brkpt() { __trap(); }
inline void __prof_trigger(int) {}
inline long long clock64() {
  unsigned lo, hi;
#if defined(__x86_64__) || defined(__i386__)
  __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
#else
  lo = hi = 0;
#endif
  return static_cast<long long>((static_cast<unsigned long long>(hi) << 32) | lo);
}
#if CASS_CPU_HIP
inline long long wall_clock64() { return clock64(); }
#endif
// Device code's clock() counts the GPU's cycles (at clockRate kHz); libc's, which a kernel here would
// call, counts the process's CPU microseconds, so a kernel that spins for N cycles (cuda-samples'
// simpleHyperQ: 10 ms at clockRate) spun for N microseconds of CPU, 14 s a kernel. Inside a kernel it
// is the cycle counter; host code keeps libc's. A macro, as ::clock cannot be overloaded; defined
// after <time.h> declared it (its include guard keeps later includes from declaring it again).
inline clock_t cass_clock() {
  return ::cass::detail::t_fiber != nullptr ? static_cast<clock_t>(clock64()) : ::clock();
}
namespace std {
using ::cass_clock;  // std::clock() becomes std::cass_clock()
}
#define clock() cass_clock()

// ---- warp intrinsics ----------------------------------------------------------------------------
namespace cass {
namespace detail {
template <class T>
inline unsigned long long to_bits(const T& v) {
  static_assert(sizeof(T) <= 8, "warp shuffles move at most 8 bytes");
  unsigned long long u = 0;
  std::memcpy(&u, &v, sizeof(T));
  return u;
}
template <class T>
inline T from_bits(unsigned long long u) {
  T v;
  std::memcpy(&v, &u, sizeof(T));
  return v;
}
inline int clamp_width(int width) {
  return width <= 0 || width > CASS_CPU_WARP_SIZE || (width & (width - 1)) != 0 ? CASS_CPU_WARP_SIZE : width;
}
// The shuffles read the lane from t_fiber: exact, as warp_exchange settled the block.
template <class T>
inline T shfl(lanemask mask, T v, int src_lane, int width) {
  Exchange e = warp_exchange(to_bits(v), mask);
  int lane = static_cast<int>(t_fiber->lane), w = clamp_width(width);
  return from_bits<T>(e.slots[(lane & ~(w - 1)) + (src_lane & (w - 1))]);
}
template <class T>
inline T shfl_up(lanemask mask, T v, unsigned delta, int width) {
  Exchange e = warp_exchange(to_bits(v), mask);
  int lane = static_cast<int>(t_fiber->lane), w = clamp_width(width);
  int src = lane - static_cast<int>(delta);
  return src < (lane & ~(w - 1)) ? v : from_bits<T>(e.slots[src]);
}
template <class T>
inline T shfl_down(lanemask mask, T v, unsigned delta, int width) {
  Exchange e = warp_exchange(to_bits(v), mask);
  int lane = static_cast<int>(t_fiber->lane), w = clamp_width(width);
  int src = lane + static_cast<int>(delta);
  return src >= (lane & ~(w - 1)) + w ? v : from_bits<T>(e.slots[src]);
}
template <class T>
inline T shfl_xor(lanemask mask, T v, int lane_mask, int width) {
  Exchange e = warp_exchange(to_bits(v), mask);
  int lane = static_cast<int>(t_fiber->lane), w = clamp_width(width);
  int src = lane ^ lane_mask;
  return src >= (lane & ~(w - 1)) + w || src < 0 ? v : from_bits<T>(e.slots[src]);
}
inline lanemask ballot(lanemask mask, int pred, lanemask* members = nullptr) {
  Exchange e = warp_exchange(pred != 0, mask);
  lanemask r = 0;
  for (lanemask m = e.members; m != 0; m &= m - 1) {
    int l = __builtin_ctzll(m);
    if (e.slots[l] != 0) r |= 1ull << l;
  }
  if (members != nullptr) *members = e.members;
  return r;
}
template <class T, class Op>
inline T warp_reduce(lanemask mask, T v, Op op) {
  Exchange e = warp_exchange(to_bits(v), mask);
  lanemask m = e.members;
  T acc = from_bits<T>(e.slots[__builtin_ctzll(m)]);
  for (m &= m - 1; m != 0; m &= m - 1) acc = op(acc, from_bits<T>(e.slots[__builtin_ctzll(m)]));
  return acc;
}
}  // namespace detail
}  // namespace cass

template <class T>
inline T __shfl_sync(unsigned long long mask, T v, int src, int width = warpSize) {
  return ::cass::detail::shfl(mask, v, src, width);
}
template <class T>
inline T __shfl_up_sync(unsigned long long mask, T v, unsigned delta, int width = warpSize) {
  return ::cass::detail::shfl_up(mask, v, delta, width);
}
template <class T>
inline T __shfl_down_sync(unsigned long long mask, T v, unsigned delta, int width = warpSize) {
  return ::cass::detail::shfl_down(mask, v, delta, width);
}
template <class T>
inline T __shfl_xor_sync(unsigned long long mask, T v, int lane_mask, int width = warpSize) {
  return ::cass::detail::shfl_xor(mask, v, lane_mask, width);
}
// The pre-CUDA-9 forms, still the everyday HIP spelling: the whole warp takes part.
template <class T>
inline T __shfl(T v, int src, int width = warpSize) {
  return ::cass::detail::shfl(::cass::detail::kFullWarp, v, src, width);
}
template <class T>
inline T __shfl_up(T v, unsigned delta, int width = warpSize) {
  return ::cass::detail::shfl_up(::cass::detail::kFullWarp, v, delta, width);
}
template <class T>
inline T __shfl_down(T v, unsigned delta, int width = warpSize) {
  return ::cass::detail::shfl_down(::cass::detail::kFullWarp, v, delta, width);
}
template <class T>
inline T __shfl_xor(T v, int lane_mask, int width = warpSize) {
  return ::cass::detail::shfl_xor(::cass::detail::kFullWarp, v, lane_mask, width);
}
inline cass_lanemask_t __ballot_sync(unsigned long long mask, int pred) {
  return static_cast<cass_lanemask_t>(::cass::detail::ballot(mask, pred));
}
inline cass_lanemask_t __ballot(int pred) {
  return static_cast<cass_lanemask_t>(::cass::detail::ballot(::cass::detail::kFullWarp, pred));
}
inline int __any_sync(unsigned long long mask, int pred) { return ::cass::detail::ballot(mask, pred) != 0; }
inline int __all_sync(unsigned long long mask, int pred) {
  unsigned long long members = 0;
  return ::cass::detail::ballot(mask, pred, &members) == members;
}
inline int __any(int pred) { return __any_sync(::cass::detail::kFullWarp, pred); }
inline int __all(int pred) { return __all_sync(::cass::detail::kFullWarp, pred); }
inline int __uni_sync(unsigned long long mask, int pred) {
  unsigned long long members = 0, b = ::cass::detail::ballot(mask, pred, &members);
  return b == 0 || b == members;
}
inline void __syncwarp(unsigned long long mask = ::cass::detail::kFullWarp) { ::cass::detail::warp_exchange(0, mask); }
// Lanes that have not exited: fibers cannot see which lanes share a branch, so this is the best
// approximation of "converged lanes" (exact for warp-uniform code).
inline cass_lanemask_t __activemask() {
  ::cass::detail::settle(*::cass::detail::t_fiber->block);
  const ::cass::detail::Fiber* f = ::cass::detail::t_fiber;  // exact once settled
  return static_cast<cass_lanemask_t>(f->block->warps[f->warp].live);
}
// HIP's lane queries; CUDA declares none (a CUDA program may define its own __lane_id).
#if CASS_CPU_HIP
inline unsigned __lane_id() { return ::cass::detail::this_thread()->lane; }
inline cass_lanemask_t __lanemask_lt() { return static_cast<cass_lanemask_t>((1ull << __lane_id()) - 1); }
inline cass_lanemask_t __lanemask_le() { return static_cast<cass_lanemask_t>((2ull << __lane_id()) - 1); }
inline cass_lanemask_t __lanemask_gt() { return static_cast<cass_lanemask_t>(~((2ull << __lane_id()) - 1) & ::cass::detail::kFullWarp); }
inline cass_lanemask_t __lanemask_ge() { return static_cast<cass_lanemask_t>(~((1ull << __lane_id()) - 1) & ::cass::detail::kFullWarp); }
#endif
template <class T>
inline cass_lanemask_t __match_any_sync(unsigned long long mask, T v) {
  ::cass::detail::Exchange e = ::cass::detail::warp_exchange(::cass::detail::to_bits(v), mask);
  unsigned long long mine = ::cass::detail::to_bits(v), r = 0;
  for (unsigned long long m = e.members; m != 0; m &= m - 1)
    if (e.slots[__builtin_ctzll(m)] == mine) r |= 1ull << __builtin_ctzll(m);
  return static_cast<cass_lanemask_t>(r);
}
template <class T>
inline cass_lanemask_t __match_all_sync(unsigned long long mask, T v, int* pred) {
  cass_lanemask_t same = __match_any_sync(mask, v);
  unsigned long long members = (mask | (1ull << ::cass::detail::this_thread()->lane)) & ::cass::detail::kFullWarp;
  *pred = (same & members) == (members & static_cast<cass_lanemask_t>(~0ull));
  return *pred ? same : 0;
}
inline unsigned __reduce_add_sync(unsigned long long mask, unsigned v) {
  return ::cass::detail::warp_reduce(mask, v, [](unsigned a, unsigned b) { return a + b; });
}
inline int __reduce_add_sync(unsigned long long mask, int v) {
  return ::cass::detail::warp_reduce(mask, v, [](int a, int b) { return a + b; });
}
inline unsigned __reduce_min_sync(unsigned long long mask, unsigned v) {
  return ::cass::detail::warp_reduce(mask, v, [](unsigned a, unsigned b) { return a < b ? a : b; });
}
inline int __reduce_min_sync(unsigned long long mask, int v) {
  return ::cass::detail::warp_reduce(mask, v, [](int a, int b) { return a < b ? a : b; });
}
inline unsigned __reduce_max_sync(unsigned long long mask, unsigned v) {
  return ::cass::detail::warp_reduce(mask, v, [](unsigned a, unsigned b) { return a > b ? a : b; });
}
inline int __reduce_max_sync(unsigned long long mask, int v) {
  return ::cass::detail::warp_reduce(mask, v, [](int a, int b) { return a > b ? a : b; });
}
inline unsigned __reduce_and_sync(unsigned long long mask, unsigned v) {
  return ::cass::detail::warp_reduce(mask, v, [](unsigned a, unsigned b) { return a & b; });
}
inline unsigned __reduce_or_sync(unsigned long long mask, unsigned v) {
  return ::cass::detail::warp_reduce(mask, v, [](unsigned a, unsigned b) { return a | b; });
}
inline unsigned __reduce_xor_sync(unsigned long long mask, unsigned v) {
  return ::cass::detail::warp_reduce(mask, v, [](unsigned a, unsigned b) { return a ^ b; });
}

// ---- atomics ------------------------------------------------------------------------------------
// GCC's __atomic builtins on plain memory: blocks run concurrently on the worker threads.
// Only the overloads the API declares: CUDA has no atomicMax(float*) or atomicAdd(long long*), and
// a program may define its own (HIP declares more, so a HIP run gets those too).
#define CASS_ATOMIC_INT(name, builtin, T) \
  inline T name(T* a, T v) { return builtin(a, v, __ATOMIC_RELAXED); }
#define CASS_ATOMIC_INTS(name, builtin)              \
  CASS_ATOMIC_INT(name, builtin, int)                \
  CASS_ATOMIC_INT(name, builtin, unsigned int)
CASS_ATOMIC_INTS(atomicAdd, __atomic_fetch_add)
CASS_ATOMIC_INTS(atomicSub, __atomic_fetch_sub)
CASS_ATOMIC_INTS(atomicAnd, __atomic_fetch_and)
CASS_ATOMIC_INTS(atomicOr, __atomic_fetch_or)
CASS_ATOMIC_INTS(atomicXor, __atomic_fetch_xor)
CASS_ATOMIC_INTS(atomicExch, __atomic_exchange_n)
CASS_ATOMIC_INT(atomicAdd, __atomic_fetch_add, unsigned long long)
CASS_ATOMIC_INT(atomicAnd, __atomic_fetch_and, unsigned long long)
CASS_ATOMIC_INT(atomicOr, __atomic_fetch_or, unsigned long long)
CASS_ATOMIC_INT(atomicXor, __atomic_fetch_xor, unsigned long long)
CASS_ATOMIC_INT(atomicExch, __atomic_exchange_n, unsigned long long)
#if CASS_CPU_HIP
CASS_ATOMIC_INT(atomicSub, __atomic_fetch_sub, unsigned long long)
#endif
#undef CASS_ATOMIC_INTS
#undef CASS_ATOMIC_INT

namespace cass {
namespace detail {
// Read-modify-write of any 4- or 8-byte type through a compare-and-swap loop on its bits.
template <class T, class Op>
inline T atomic_update(T* a, Op op) {
  using Bits = std::conditional_t<sizeof(T) == 4, unsigned int, unsigned long long>;
  static_assert(sizeof(T) == sizeof(Bits), "4- or 8-byte atomics only");
  Bits* p = reinterpret_cast<Bits*>(a);
  Bits old = __atomic_load_n(p, __ATOMIC_RELAXED), next;
  T value;
  do {
    std::memcpy(&value, &old, sizeof(T));
    T updated = op(value);
    std::memcpy(&next, &updated, sizeof(T));
  } while (!__atomic_compare_exchange_n(p, &old, next, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
  std::memcpy(&value, &old, sizeof(T));
  return value;
}
}  // namespace detail
}  // namespace cass

inline float atomicAdd(float* a, float v) { return ::cass::detail::atomic_update(a, [v](float x) { return x + v; }); }
inline double atomicAdd(double* a, double v) { return ::cass::detail::atomic_update(a, [v](double x) { return x + v; }); }
inline float atomicExch(float* a, float v) { return ::cass::detail::atomic_update(a, [v](float) { return v; }); }
#define CASS_ATOMIC_MINMAX(T)                                                                                  \
  inline T atomicMin(T* a, T v) { return ::cass::detail::atomic_update(a, [v](T x) { return v < x ? v : x; }); } \
  inline T atomicMax(T* a, T v) { return ::cass::detail::atomic_update(a, [v](T x) { return v > x ? v : x; }); }
CASS_ATOMIC_MINMAX(int)
CASS_ATOMIC_MINMAX(unsigned int)
CASS_ATOMIC_MINMAX(unsigned long long)
CASS_ATOMIC_MINMAX(long long)
#if CASS_CPU_HIP
inline float atomicSub(float* a, float v) { return ::cass::detail::atomic_update(a, [v](float x) { return x - v; }); }
inline double atomicSub(double* a, double v) { return ::cass::detail::atomic_update(a, [v](double x) { return x - v; }); }
inline double atomicExch(double* a, double v) { return ::cass::detail::atomic_update(a, [v](double) { return v; }); }
CASS_ATOMIC_MINMAX(float)
CASS_ATOMIC_MINMAX(double)
#endif
#undef CASS_ATOMIC_MINMAX
inline unsigned int atomicInc(unsigned int* a, unsigned int limit) {
  return ::cass::detail::atomic_update(a, [limit](unsigned int x) { return x >= limit ? 0u : x + 1; });
}
inline unsigned int atomicDec(unsigned int* a, unsigned int limit) {
  return ::cass::detail::atomic_update(a, [limit](unsigned int x) { return x == 0 || x > limit ? limit : x - 1; });
}
#define CASS_ATOMIC_CAS(T)                                                            \
  inline T atomicCAS(T* a, T expected, T desired) {                                   \
    T old = expected;                                                                 \
    if (!__atomic_compare_exchange_n(a, &old, desired, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) \
      ::cass::detail::spin_hint();                                                    \
    return old;                                                                       \
  }
CASS_ATOMIC_CAS(int)
CASS_ATOMIC_CAS(unsigned int)
CASS_ATOMIC_CAS(unsigned long long)
CASS_ATOMIC_CAS(unsigned short)
#undef CASS_ATOMIC_CAS

// Scoped and HIP variants have the same effect on one emulated device.
#define CASS_ATOMIC_ALIAS(name)                                            \
  template <class T, class... A>                                           \
  inline auto name##_block(T* a, A... v) { return name(a, v...); }         \
  template <class T, class... A>                                           \
  inline auto name##_system(T* a, A... v) { return name(a, v...); }
CASS_ATOMIC_ALIAS(atomicAdd)
CASS_ATOMIC_ALIAS(atomicSub)
CASS_ATOMIC_ALIAS(atomicExch)
CASS_ATOMIC_ALIAS(atomicMin)
CASS_ATOMIC_ALIAS(atomicMax)
CASS_ATOMIC_ALIAS(atomicInc)
CASS_ATOMIC_ALIAS(atomicDec)
CASS_ATOMIC_ALIAS(atomicCAS)
CASS_ATOMIC_ALIAS(atomicAnd)
CASS_ATOMIC_ALIAS(atomicOr)
CASS_ATOMIC_ALIAS(atomicXor)
#undef CASS_ATOMIC_ALIAS
#if CASS_CPU_HIP  // HIP's own atomics
template <class T>
inline T unsafeAtomicAdd(T* a, T v) { return atomicAdd(a, v); }
template <class T>
inline T safeAtomicAdd(T* a, T v) { return atomicAdd(a, v); }
template <class T>
inline void atomicAddNoRet(T* a, T v) { atomicAdd(a, v); }
#endif

// ---- loads and stores with cache hints ---------------------------------------------------------
template <class T> inline T __ldg(const T* p) { return *p; }
template <class T> inline T __ldcg(const T* p) { return *p; }
template <class T> inline T __ldca(const T* p) { return *p; }
template <class T> inline T __ldcs(const T* p) { return *p; }
template <class T> inline T __ldlu(const T* p) { return *p; }
template <class T> inline T __ldcv(const T* p) { return *p; }
template <class T> inline void __stcg(T* p, T v) { *p = v; }
template <class T> inline void __stcs(T* p, T v) { *p = v; }
template <class T> inline void __stwb(T* p, T v) { *p = v; }
template <class T> inline void __stwt(T* p, T v) { *p = v; }
template <class T> inline unsigned __isGlobal(const T*) { return 1; }
template <class T> inline unsigned __isShared(const T*) { return 0; }
