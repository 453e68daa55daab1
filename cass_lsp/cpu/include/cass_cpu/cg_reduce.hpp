// <cooperative_groups/reduce.h> and scan.h for the CPU runtime: cg::reduce, inclusive_scan and
// exclusive_scan over a tile or coalesced group, with the function objects. Only CUDA has them
// (HIP's cooperative groups do not), so <hip/hip_cooperative_groups.h> leaves them out as HIP does.
#pragma once
#include "cg.hpp"

namespace cooperative_groups {
template <class T>
struct plus {
  T operator()(const T& a, const T& b) const { return a + b; }
};
template <class T>
struct less {
  T operator()(const T& a, const T& b) const { return b < a ? b : a; }
};
template <class T>
struct greater {
  T operator()(const T& a, const T& b) const { return a < b ? b : a; }
};
template <class T>
struct bit_and {
  T operator()(const T& a, const T& b) const { return a & b; }
};
template <class T>
struct bit_or {
  T operator()(const T& a, const T& b) const { return a | b; }
};
template <class T>
struct bit_xor {
  T operator()(const T& a, const T& b) const { return a ^ b; }
};

// Members combine in rank order, the same on both sides of a pair.
template <class Group, class T, class Op>
inline T reduce(const Group& g, T v, Op op) {
  T acc{};
  g.cass_each_value(v, [&](unsigned r, T x) { acc = r == 0 ? x : op(acc, x); });
  return acc;
}

template <class Group, class T, class Op = plus<T>>
inline T inclusive_scan(const Group& g, T v, Op op = Op()) {
  T acc{};
  const unsigned me = static_cast<unsigned>(g.thread_rank());
  g.cass_each_value(v, [&](unsigned r, T x) {
    if (r <= me) acc = r == 0 ? x : op(acc, x);
  });
  return acc;
}

// Rank 0 gets T() (CUDA leaves it undefined for operators other than plus).
template <class Group, class T, class Op = plus<T>>
inline T exclusive_scan(const Group& g, T v, Op op = Op()) {
  T acc{};
  const unsigned me = static_cast<unsigned>(g.thread_rank());
  g.cass_each_value(v, [&](unsigned r, T x) {
    if (r < me) acc = r == 0 ? x : op(acc, x);
  });
  return acc;
}

}  // namespace cooperative_groups
