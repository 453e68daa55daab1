// cooperative_groups for the CPU runtime (<cooperative_groups.h>, its reduce.h and scan.h, and
// HIP's <hip/hip_cooperative_groups.h>: one implementation for both, in namespace cooperative_groups).
//
// Groups are built on the runtime's own barriers and warp collectives (sched.hpp, device.hpp): a
// thread_block syncs with __syncthreads' barrier, a tile or coalesced group is a mask of lanes in
// one warp and its collectives are warp exchanges over that mask, the grid's sync is coop.hpp's
// grid barrier. Tiles are at most a warp wide (as CUDA's dynamic tiled_partition requires); a
// wider one stops the run rather than sync the wrong threads.
//
// coalesced_threads() is a wait: the lanes of a warp that call it learn which others did only
// once no thread of the block can run on (each other lane has gone past, to a barrier, a
// collective or its end), so a group made inside a branch holds exactly the lanes that took it.
#pragma once
#include <cstring>
#include <vector>

#include "runtime.hpp"

namespace cooperative_groups {
namespace cass_impl {
using ::cass::detail::lanemask;

inline unsigned block_rank() { return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); }
inline unsigned block_threads() { return blockDim.x * blockDim.y * blockDim.z; }
inline unsigned my_lane() { return ::cass::detail::this_thread()->lane; }

// The lanes of this warp in a group of `size` consecutive block ranks containing this thread.
inline lanemask tile_mask(unsigned size) {
  if (size == 0 || size > CASS_CPU_WARP_SIZE || (size & (size - 1)) != 0) {
    char what[160];
    std::snprintf(what, sizeof what,
                  "tiled_partition into tiles of %u threads: the CPU runtime makes tiles of a power of two up to "
                  "a warp (%d)",
                  size, CASS_CPU_WARP_SIZE);
    ::cass::detail::cannot_run(what);
  }
  const lanemask ones = size == 64 ? ~0ull : (1ull << size) - 1;
  return ones << (my_lane() & ~(size - 1));
}

// The bits of `value` at the positions `mask` selects, packed from bit 0 (by group rank).
inline lanemask compress(lanemask value, lanemask mask) {
  lanemask out = 0;
  unsigned k = 0;
  for (lanemask m = mask; m != 0; m &= m - 1, ++k)
    if (value & (m & (~m + 1))) out |= 1ull << k;
  return out;
}

// The lane of the group member of rank `rank` (ranks follow lane order).
inline unsigned lane_of(lanemask mask, unsigned rank) {
  for (; rank != 0; --rank) mask &= mask - 1;
  return static_cast<unsigned>(__builtin_ctzll(mask));
}

struct Coalescing {
  std::vector<lanemask> waiting, formed;  // by warp of the running block
};
inline thread_local Coalescing t_coalescing;

inline bool release_coalesced(::cass::detail::Block& b) {
  Coalescing& c = t_coalescing;
  bool released = false;
  for (unsigned w = 0; w < b.nwarps && w < c.waiting.size(); ++w) {
    if (c.waiting[w] == 0) continue;
    c.formed[w] = c.waiting[w];
    for (lanemask m = c.waiting[w]; m != 0; m &= m - 1)
      b.fibers[w * CASS_CPU_WARP_SIZE + __builtin_ctzll(m)].state = ::cass::detail::State::Runnable;
    c.waiting[w] = 0;
    released = true;
  }
  return released;
}
inline const bool g_coalescing_hooked = (::cass::detail::g_release_stalled = &release_coalesced, true);

inline lanemask wait_for_coalesced() {
  ::cass::detail::Block& b = *::cass::detail::t_fiber->block;
  ::cass::detail::settle(b);
  ::cass::detail::Fiber* f = ::cass::detail::t_fiber;  // exact once settled
  Coalescing& c = t_coalescing;
  if (c.waiting.size() < b.nwarps) {
    c.waiting.resize(b.nwarps, 0);
    c.formed.resize(b.nwarps, 0);
  }
  c.waiting[f->warp] |= 1ull << f->lane;
  f->state = ::cass::detail::State::AtWarp;
  ::cass::detail::yield(f);
  return c.formed[f->warp];
}
}  // namespace cass_impl

// A group of threads known at run time: a block, a tile of it, coalesced lanes or the grid.
class thread_group {
 public:
  unsigned long long size() const { return size_; }
  unsigned long long num_threads() const { return size_; }
  unsigned long long thread_rank() const { return rank_; }
  void sync() const {
    if (kind_ == Kind::block)
      ::cass::detail::block_barrier(0);
    else if (kind_ == Kind::grid)
      ::cass::detail::grid_sync();
    else
      ::cass::detail::warp_exchange(0, mask_);
  }

 protected:
  enum class Kind : unsigned char { block, tile, coalesced, grid };
  thread_group(Kind kind, unsigned long long size, unsigned long long rank, cass_impl::lanemask mask)
      : kind_(kind), mask_(mask), size_(size), rank_(rank) {}
  Kind kind_;
  cass_impl::lanemask mask_;  // tile and coalesced groups: their lanes of this warp
  unsigned long long size_, rank_;
  friend thread_group tiled_partition(const thread_group& parent, unsigned tile_size);
};

class thread_block : public thread_group {
 public:
  thread_block() : thread_group(Kind::block, cass_impl::block_threads(), cass_impl::block_rank(), 0) {}
  void sync() const { ::cass::detail::block_barrier(0); }
  unsigned size() const { return cass_impl::block_threads(); }
  unsigned num_threads() const { return cass_impl::block_threads(); }
  unsigned thread_rank() const { return cass_impl::block_rank(); }
  dim3 group_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  dim3 thread_index() const { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
  dim3 group_dim() const { return blockDim; }
  dim3 dim_threads() const { return blockDim; }
};

inline thread_block this_thread_block() { return thread_block(); }

class grid_group : public thread_group {
 public:
  grid_group()
      : thread_group(Kind::grid, 1ull * gridDim.x * gridDim.y * gridDim.z * cass_impl::block_threads(),
                     block_rank() * cass_impl::block_threads() + cass_impl::block_rank(), 0) {}
  void sync() const { ::cass::detail::grid_sync(); }
  bool is_valid() const { return ::cass::detail::in_cooperative_launch(); }
  static unsigned long long block_rank() {
    return blockIdx.x + 1ull * gridDim.x * (blockIdx.y + 1ull * gridDim.y * blockIdx.z);
  }
  unsigned long long num_blocks() const { return 1ull * gridDim.x * gridDim.y * gridDim.z; }
  dim3 block_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  dim3 dim_blocks() const { return gridDim; }
  dim3 group_dim() const { return gridDim; }
};

inline grid_group this_grid() { return grid_group(); }

// Lanes of one warp, with the collectives of tiles and coalesced groups; ranks follow lane order.
class cass_lane_group : public thread_group {
 public:
  unsigned long long meta_group_rank() const { return meta_rank_; }
  unsigned long long meta_group_size() const { return meta_size_; }
  void sync() const { ::cass::detail::warp_exchange(0, mask_); }

  template <class T>
  T shfl(T v, unsigned src_rank) const {
    return cass_from_lane(v, static_cast<int>(cass_impl::lane_of(mask_, src_rank % size_)));
  }
  template <class T>
  T shfl_down(T v, unsigned delta) const {
    return cass_from_lane(v, rank_ + delta < size_ ? static_cast<int>(cass_impl::lane_of(mask_, rank_ + delta)) : -1);
  }
  template <class T>
  T shfl_up(T v, unsigned delta) const {
    return cass_from_lane(v, rank_ >= delta ? static_cast<int>(cass_impl::lane_of(mask_, rank_ - delta)) : -1);
  }
  unsigned ballot(int pred) const {
    return static_cast<unsigned>(cass_impl::compress(::cass::detail::ballot(mask_, pred), mask_));
  }
  int any(int pred) const { return ::cass::detail::ballot(mask_, pred) != 0; }
  int all(int pred) const { return (::cass::detail::ballot(mask_, pred) & mask_) == mask_; }
  template <class T>
  unsigned match_any(T v) const {
    ::cass::detail::Exchange e = ::cass::detail::warp_exchange(::cass::detail::to_bits(v), mask_);
    cass_impl::lanemask same = 0;
    for (cass_impl::lanemask m = mask_; m != 0; m &= m - 1)
      if (e.slots[__builtin_ctzll(m)] == ::cass::detail::to_bits(v)) same |= m & (~m + 1);
    return static_cast<unsigned>(cass_impl::compress(same, mask_));
  }

  // Every member's value, by rank, for reduce and the scans.
  template <class T, class F>
  void cass_each_value(T v, F&& use) const {
    ::cass::detail::Exchange e = ::cass::detail::warp_exchange(::cass::detail::to_bits(v), mask_);
    unsigned r = 0;
    for (cass_impl::lanemask m = mask_; m != 0; m &= m - 1, ++r)
      use(r, ::cass::detail::from_bits<T>(e.slots[__builtin_ctzll(m)]));
  }

 protected:
  // The value of the member in lane `from` (-1: this member's own), moved 8 bytes at a time: CUDA's
  // group shuffles take any trivially copyable type (shfl_scan's uint4), not only what fits a register.
  template <class T>
  T cass_from_lane(T v, int from) const {
    constexpr unsigned words = (sizeof(T) + 7) / 8;
    unsigned long long mine[words] = {}, theirs[words];
    std::memcpy(mine, &v, sizeof(T));
    for (unsigned w = 0; w < words; ++w) {
      ::cass::detail::Exchange e = ::cass::detail::warp_exchange(mine[w], mask_);
      theirs[w] = from < 0 ? mine[w] : e.slots[from];
    }
    T r;
    std::memcpy(&r, theirs, sizeof(T));
    return r;
  }

  cass_lane_group(Kind kind, cass_impl::lanemask mask, unsigned long long meta_rank, unsigned long long meta_size)
      : thread_group(kind, static_cast<unsigned long long>(__builtin_popcountll(mask)),
                     static_cast<unsigned long long>(__builtin_popcountll(mask & ((1ull << cass_impl::my_lane()) - 1))),
                     mask),
        meta_rank_(meta_rank),
        meta_size_(meta_size) {}
  unsigned long long meta_rank_, meta_size_;
};

template <unsigned Size, class Parent = void>
class thread_block_tile : public cass_lane_group {
 public:
  thread_block_tile()
      : cass_lane_group(Kind::tile, cass_impl::tile_mask(Size), cass_impl::block_rank() / Size,
                        (cass_impl::block_threads() + Size - 1) / Size) {}
  template <class OtherParent>
  thread_block_tile(const thread_block_tile<Size, OtherParent>& other) : cass_lane_group(other) {}
  static constexpr unsigned long long size() { return Size; }
  static constexpr unsigned long long num_threads() { return Size; }
  unsigned long long thread_rank() const { return rank_; }
  template <class T>
  T shfl_xor(T v, unsigned lane_mask) const {
    unsigned src = static_cast<unsigned>(rank_) ^ lane_mask;
    return cass_from_lane(v, src < Size ? static_cast<int>(cass_impl::lane_of(mask_, src)) : -1);
  }
};

template <unsigned Size, class Parent>
thread_block_tile<Size, Parent> tiled_partition(const Parent&) {
  return thread_block_tile<Size, Parent>();
}

class coalesced_group : public cass_lane_group {
 public:
  explicit coalesced_group(cass_impl::lanemask mask) : cass_lane_group(Kind::coalesced, mask, 0, 1) {}
  unsigned long long size() const { return size_; }
  unsigned long long num_threads() const { return size_; }
  unsigned long long thread_rank() const { return rank_; }
};

inline coalesced_group coalesced_threads() { return coalesced_group(cass_impl::wait_for_coalesced()); }

// The dynamic form: a tile of a block, or of a tile (tiles are aligned runs of block ranks, so a
// tile of a tile is the block's tile of that size).
inline thread_group tiled_partition(const thread_group& parent, unsigned tile_size) {
  if (parent.kind_ != thread_group::Kind::block && parent.kind_ != thread_group::Kind::tile)
    ::cass::detail::cannot_run("tiled_partition of a grid or coalesced group");
  return thread_group(thread_group::Kind::tile, tile_size, cass_impl::block_rank() % tile_size,
                      cass_impl::tile_mask(tile_size));
}

template <class Group>
inline void sync(const Group& g) {
  g.sync();
}

}  // namespace cooperative_groups
