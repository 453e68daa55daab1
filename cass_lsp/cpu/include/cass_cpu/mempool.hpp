// Stream-ordered allocation: cudaMallocAsync/cudaFreeAsync and memory pools (cudaMemPool_t).
// Streams run synchronously here, so an allocation is ready when its call returns. What a pool adds
// is its accounting, which programs read back and print: a freed block stays reserved by its pool
// (and is reused by the pool's next allocation that fits) until a stream, event or device
// synchronize releases what exceeds the release threshold, or cudaMemPoolTrimTo does, as on a GPU.
// Sizes are counted in the 256-byte blocks device_alloc hands out, not a GPU's 2 MiB pages.
#pragma once
#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <utility>

#include "api.hpp"

enum cudaMemPoolAttr {
  cudaMemPoolReuseFollowEventDependencies = 0x1,
  cudaMemPoolReuseAllowOpportunistic = 0x2,
  cudaMemPoolReuseAllowInternalDependencies = 0x3,
  cudaMemPoolAttrReleaseThreshold = 0x4,
  cudaMemPoolAttrReservedMemCurrent = 0x5,
  cudaMemPoolAttrReservedMemHigh = 0x6,
  cudaMemPoolAttrUsedMemCurrent = 0x7,
  cudaMemPoolAttrUsedMemHigh = 0x8,
  cudaMemPoolAttrAllocationType = 0x9,
  cudaMemPoolAttrExportHandleTypes = 0xA,
  cudaMemPoolAttrLocationId = 0xB,
  cudaMemPoolAttrLocationType = 0xC,
  cudaMemPoolAttrMaxPoolSize = 0xD,
};
enum cudaMemLocationType {
  cudaMemLocationTypeInvalid = 0,
  cudaMemLocationTypeNone = 0,
  cudaMemLocationTypeDevice = 1,
  cudaMemLocationTypeHost = 2,
  cudaMemLocationTypeHostNuma = 3,
  cudaMemLocationTypeHostNumaCurrent = 4,
};
struct cudaMemLocation {
  cudaMemLocationType type;
  int id;
};
enum cudaMemAccessFlags { cudaMemAccessFlagsProtNone = 0, cudaMemAccessFlagsProtRead = 1, cudaMemAccessFlagsProtReadWrite = 3 };
struct cudaMemAccessDesc {
  cudaMemLocation location;
  cudaMemAccessFlags flags;
};
enum cudaMemAllocationType {
  cudaMemAllocationTypeInvalid = 0x0,
  cudaMemAllocationTypePinned = 0x1,
  cudaMemAllocationTypeManaged = 0x2,
  cudaMemAllocationTypeMax = 0x7FFFFFFF,
};
enum cudaMemAllocationHandleType {
  cudaMemHandleTypeNone = 0x0,
  cudaMemHandleTypePosixFileDescriptor = 0x1,
  cudaMemHandleTypeWin32 = 0x2,
  cudaMemHandleTypeWin32Kmt = 0x4,
  cudaMemHandleTypeFabric = 0x8,
};
struct cudaMemPoolProps {
  cudaMemAllocationType allocType;
  cudaMemAllocationHandleType handleTypes;
  cudaMemLocation location;
  void* win32SecurityAttributes;
  size_t maxSize;
  unsigned short usage;
  unsigned char reserved[54];
};

struct CUmemPoolHandle_st {
  cudaMemPoolProps props{};
  uint64_t release_threshold = 0;  // CUDA's default: a synchronize releases every free block
  int reuse[3] = {1, 1, 1};        // the three cudaMemPoolReuse* flags, all on by default
  uint64_t used = 0, used_high = 0, reserved = 0, reserved_high = 0;
  std::multimap<size_t, void*> free_blocks;  // capacity -> block the pool keeps for reuse
  bool destroyed = false;                    // destroyed with blocks still out: deleted at the last free
};
typedef CUmemPoolHandle_st* cudaMemPool_t;

namespace cass {
namespace detail {
struct PoolState {
  std::mutex mutex;
  CUmemPoolHandle_st default_pool;
  cudaMemPool_t current = &default_pool;
  std::set<cudaMemPool_t> created;  // by cudaMemPoolCreate, not yet deleted
  std::map<void*, std::pair<cudaMemPool_t, size_t>> blocks;  // block handed out -> (pool, capacity)
  PoolState() {
    default_pool.props.allocType = cudaMemAllocationTypePinned;
    default_pool.props.location = {cudaMemLocationTypeDevice, 0};
  }
};
inline PoolState& pools() {
  static PoolState state;
  return state;
}
inline size_t pool_capacity(size_t size) { return (size + 255) & ~size_t(255); }

// Gives free blocks back to the system until the pool reserves at most ``keep`` bytes (caller holds the lock).
inline void pool_release(cudaMemPool_t pool, uint64_t keep) {
  while (pool->reserved > keep && !pool->free_blocks.empty()) {
    auto largest = std::prev(pool->free_blocks.end());
    pool->reserved -= largest->first;
    device_free(largest->second);
    pool->free_blocks.erase(largest);
  }
}

inline cudaError_t pool_alloc(void** p, size_t size, cudaMemPool_t pool, int line) {
  if (sticky() != cudaSuccess) return sticky();
  if (pool == nullptr) return fail(cudaErrorInvalidValue);
  if (size == 0) {
    *p = nullptr;
    return cudaSuccess;
  }
  size_t capacity = pool_capacity(size);
  PoolState& s = pools();
  std::lock_guard<std::mutex> hold(s.mutex);
  void* block = nullptr;
  // Reuse the smallest free block that fits and wastes less than the request (a GPU's pool reuses
  // freed memory for later allocations of the same stream, which is the only order here).
  auto fit = pool->free_blocks.lower_bound(capacity);
  if (fit != pool->free_blocks.end() && fit->first < 2 * capacity) {
    capacity = fit->first;
    block = fit->second;
    pool->free_blocks.erase(fit);
  } else {
    size_t limit = pool->props.maxSize;  // 0: no limit
    if (limit != 0 && capacity > limit) return fail(cudaErrorMemoryAllocation);
    if (limit != 0 && pool->reserved + capacity > limit) pool_release(pool, limit - capacity);
    if (limit != 0 && pool->reserved + capacity > limit) return fail(cudaErrorMemoryAllocation);
    block = device_alloc(capacity);
    if (block == nullptr) {
      pool_release(pool, 0);  // what the pool keeps may be what the system lacks
      block = device_alloc(capacity);
    }
    if (block == nullptr) return fail(cudaErrorMemoryAllocation);
    pool->reserved += capacity;
    if (pool->reserved > pool->reserved_high) pool->reserved_high = pool->reserved;
  }
  pool->used += capacity;
  if (pool->used > pool->used_high) pool->used_high = pool->used;
  s.blocks[block] = {pool, capacity};
  *p = block;
  ::cass::record::allocated(block, size, line);
  return cudaSuccess;
}

// A free of a pool's block returns it to its pool; false for memory no pool handed out.
inline bool pool_free(void* p) {
  PoolState& s = pools();
  std::lock_guard<std::mutex> hold(s.mutex);
  auto it = s.blocks.find(p);
  if (it == s.blocks.end()) return false;
  auto [pool, capacity] = it->second;
  s.blocks.erase(it);
  ::cass::record::freed(p);
  pool->used -= capacity;
  pool->free_blocks.emplace(capacity, p);
  if (pool->destroyed) {
    pool_release(pool, 0);
    if (pool->used == 0) {
      s.created.erase(pool);
      delete pool;
    }
  }
  return true;
}

// A stream, event or device synchronize: each pool keeps at most its release threshold.
inline void pools_synchronized() {
  PoolState& s = pools();
  std::lock_guard<std::mutex> hold(s.mutex);
  pool_release(&s.default_pool, s.default_pool.release_threshold);
  for (cudaMemPool_t pool : s.created) pool_release(pool, pool->release_threshold);
}
}  // namespace detail
}  // namespace cass

inline cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t* pool, int device) {
  if (device != 0) return ::cass::detail::fail(cudaErrorInvalidDevice);
  *pool = &::cass::detail::pools().default_pool;
  return cudaSuccess;
}
inline cudaError_t cudaDeviceGetMemPool(cudaMemPool_t* pool, int device) {
  if (device != 0) return ::cass::detail::fail(cudaErrorInvalidDevice);
  ::cass::detail::PoolState& s = ::cass::detail::pools();
  std::lock_guard<std::mutex> hold(s.mutex);
  *pool = s.current;
  return cudaSuccess;
}
inline cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t pool) {
  if (device != 0) return ::cass::detail::fail(cudaErrorInvalidDevice);
  if (pool == nullptr) return ::cass::detail::fail(cudaErrorInvalidValue);
  ::cass::detail::PoolState& s = ::cass::detail::pools();
  std::lock_guard<std::mutex> hold(s.mutex);
  s.current = pool;
  return cudaSuccess;
}
inline cudaError_t cudaMemPoolCreate(cudaMemPool_t* pool, const cudaMemPoolProps* props) {
  if (pool == nullptr || props == nullptr) return ::cass::detail::fail(cudaErrorInvalidValue);
  if (props->allocType != cudaMemAllocationTypePinned && props->allocType != cudaMemAllocationTypeManaged)
    return ::cass::detail::fail(cudaErrorInvalidValue);
  // Device memory is host memory here, so a host pool is one too; the one device is 0.
  if (props->location.type == cudaMemLocationTypeDevice && props->location.id != 0)
    return ::cass::detail::fail(cudaErrorInvalidDevice);
  ::cass::detail::PoolState& s = ::cass::detail::pools();
  std::lock_guard<std::mutex> hold(s.mutex);
  *pool = new CUmemPoolHandle_st;
  (*pool)->props = *props;
  s.created.insert(*pool);
  return cudaSuccess;
}
inline cudaError_t cudaMemPoolDestroy(cudaMemPool_t pool) {
  ::cass::detail::PoolState& s = ::cass::detail::pools();
  // the default pool is the device's own
  if (pool == nullptr || pool == &s.default_pool) return ::cass::detail::fail(cudaErrorInvalidValue);
  std::lock_guard<std::mutex> hold(s.mutex);
  if (s.current == pool) s.current = &s.default_pool;
  ::cass::detail::pool_release(pool, 0);
  // Blocks still out keep the pool until their free, as on a GPU.
  if (pool->used == 0) {
    s.created.erase(pool);
    delete pool;
  } else {
    pool->destroyed = true;
  }
  return cudaSuccess;
}
inline cudaError_t cudaMemPoolTrimTo(cudaMemPool_t pool, size_t keep) {
  if (pool == nullptr) return ::cass::detail::fail(cudaErrorInvalidValue);
  ::cass::detail::PoolState& s = ::cass::detail::pools();
  std::lock_guard<std::mutex> hold(s.mutex);
  ::cass::detail::pool_release(pool, keep);
  return cudaSuccess;
}
inline cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attr, void* value) {
  if (pool == nullptr || value == nullptr) return ::cass::detail::fail(cudaErrorInvalidValue);
  ::cass::detail::PoolState& s = ::cass::detail::pools();
  std::lock_guard<std::mutex> hold(s.mutex);
  switch (attr) {
    case cudaMemPoolReuseFollowEventDependencies:
    case cudaMemPoolReuseAllowOpportunistic:
    case cudaMemPoolReuseAllowInternalDependencies:
      pool->reuse[attr - cudaMemPoolReuseFollowEventDependencies] = *static_cast<int*>(value);
      return cudaSuccess;
    case cudaMemPoolAttrReleaseThreshold: pool->release_threshold = *static_cast<uint64_t*>(value); return cudaSuccess;
    // The high-water marks can only be reset (to the current amount), as on a GPU.
    case cudaMemPoolAttrReservedMemHigh:
      if (*static_cast<uint64_t*>(value) != 0) return ::cass::detail::fail(cudaErrorInvalidValue);
      pool->reserved_high = pool->reserved;
      return cudaSuccess;
    case cudaMemPoolAttrUsedMemHigh:
      if (*static_cast<uint64_t*>(value) != 0) return ::cass::detail::fail(cudaErrorInvalidValue);
      pool->used_high = pool->used;
      return cudaSuccess;
    default: return ::cass::detail::fail(cudaErrorInvalidValue);
  }
}
inline cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attr, void* value) {
  if (pool == nullptr || value == nullptr) return ::cass::detail::fail(cudaErrorInvalidValue);
  ::cass::detail::PoolState& s = ::cass::detail::pools();
  std::lock_guard<std::mutex> hold(s.mutex);
  auto u64 = [value](uint64_t v) { *static_cast<uint64_t*>(value) = v; };
  auto i32 = [value](int v) { *static_cast<int*>(value) = v; };
  switch (attr) {
    case cudaMemPoolReuseFollowEventDependencies:
    case cudaMemPoolReuseAllowOpportunistic:
    case cudaMemPoolReuseAllowInternalDependencies: i32(pool->reuse[attr - cudaMemPoolReuseFollowEventDependencies]); break;
    case cudaMemPoolAttrReleaseThreshold: u64(pool->release_threshold); break;
    case cudaMemPoolAttrReservedMemCurrent: u64(pool->reserved); break;
    case cudaMemPoolAttrReservedMemHigh: u64(pool->reserved_high); break;
    case cudaMemPoolAttrUsedMemCurrent: u64(pool->used); break;
    case cudaMemPoolAttrUsedMemHigh: u64(pool->used_high); break;
    case cudaMemPoolAttrAllocationType: i32(pool->props.allocType); break;
    case cudaMemPoolAttrExportHandleTypes: i32(pool->props.handleTypes); break;
    case cudaMemPoolAttrLocationId: i32(pool->props.location.id); break;
    case cudaMemPoolAttrLocationType: i32(pool->props.location.type); break;
    case cudaMemPoolAttrMaxPoolSize: u64(pool->props.maxSize); break;
    default: return ::cass::detail::fail(cudaErrorInvalidValue);
  }
  return cudaSuccess;
}
// The one device reaches every pool's memory (it is the host's).
inline cudaError_t cudaMemPoolSetAccess(cudaMemPool_t pool, const cudaMemAccessDesc* list, size_t count) {
  if (pool == nullptr || (list == nullptr && count != 0)) return ::cass::detail::fail(cudaErrorInvalidValue);
  for (size_t i = 0; i < count; ++i)
    if (list[i].location.type == cudaMemLocationTypeDevice && list[i].location.id != 0)
      return ::cass::detail::fail(cudaErrorInvalidDevice);
  return cudaSuccess;
}
inline cudaError_t cudaMemPoolGetAccess(cudaMemAccessFlags* flags, cudaMemPool_t pool, cudaMemLocation* location) {
  if (flags == nullptr || pool == nullptr || location == nullptr) return ::cass::detail::fail(cudaErrorInvalidValue);
  if (location->type == cudaMemLocationTypeDevice && location->id != 0) return ::cass::detail::fail(cudaErrorInvalidDevice);
  *flags = cudaMemAccessFlagsProtReadWrite;
  return cudaSuccess;
}

namespace cass {
namespace detail {
// Under stream capture these become a graph's memory nodes, allocated when the graph runs; the
// runtime's graphs have none, and allocating at once would hand the captured kernels memory that
// the captured free gave back before they run.
inline void not_captured(cudaStream_t s, const char* what) {
  if (capturing(s)) cannot_run(what);
}
}  // namespace detail
}  // namespace cass

template <class T>
inline cudaError_t cudaMallocAsync(T** p, size_t size, cudaStream_t s, int line = __builtin_LINE()) {
  ::cass::detail::not_captured(s, "cudaMallocAsync on a capturing stream (graph memory nodes are not executed)");
  cudaMemPool_t pool;
  cudaDeviceGetMemPool(&pool, 0);
  return ::cass::detail::pool_alloc(reinterpret_cast<void**>(p), size, pool, line);
}
template <class T>
inline cudaError_t cudaMallocFromPoolAsync(T** p, size_t size, cudaMemPool_t pool, cudaStream_t s,
                                           int line = __builtin_LINE()) {
  ::cass::detail::not_captured(s, "cudaMallocFromPoolAsync on a capturing stream (graph memory nodes are not executed)");
  return ::cass::detail::pool_alloc(reinterpret_cast<void**>(p), size, pool, line);
}
// cuda_runtime.h's C++ overload: cudaMallocAsync with a pool is cudaMallocFromPoolAsync.
template <class T>
inline cudaError_t cudaMallocAsync(T** p, size_t size, cudaMemPool_t pool, cudaStream_t s, int line = __builtin_LINE()) {
  ::cass::detail::not_captured(s, "cudaMallocAsync on a capturing stream (graph memory nodes are not executed)");
  return ::cass::detail::pool_alloc(reinterpret_cast<void**>(p), size, pool, line);
}
