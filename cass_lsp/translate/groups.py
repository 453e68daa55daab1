"""Cooperative groups CUDA has and the target's HIP lacks.

* ``<cooperative_groups/reduce.h>`` (``cg::reduce`` and the ``cg::plus``/``less``/``greater``/
  ``bit_and``/``bit_or``/``bit_xor`` function objects): no HIP release has it (5.2, 6.2, 7.1). The
  include becomes HIP's cooperative groups header and a compatibility helper defines them in
  ``namespace cooperative_groups``: a tree over ``shfl_down`` in rank order (each member's value
  is combined with its right neighbours', for any group size), then rank 0's result broadcast by
  ``shfl``, as CUDA returns the result to every member. The tile and coalesced groups HIP 5.2 has
  carry both shuffles.
* ``tile.meta_group_rank()`` / ``meta_group_size()`` before ROCm 6.2 (HIP 6.2 added them): the tile's
  index and the tile count within the thread block, from the block's ``thread_rank()``/``size()``
  and the tile's ``size()``; that is what they are for a tile partitioned from the thread block
  (the finding says so: a tile partitioned from another tile needs a hand port).
"""

from __future__ import annotations

from typing import Protocol

import tree_sitter

from cass_lsp.syntax import nodes
from cass_lsp.translate import codes as fc
from cass_lsp.translate.context import RuleContext

REDUCE_HEADER = "cooperative_groups/reduce.h"
REDUCE_HELPER = "cg-reduce"
REDUCE_GUARD = "CASS_CG_REDUCE"
REDUCE_WHY = "CUDA's cg::reduce and its function objects (<cooperative_groups/reduce.h>); HIP's cooperative groups lack them"
META_GROUP = frozenset({"meta_group_rank", "meta_group_size"})
_META_GROUP_SINCE = (6, 2)
_BLOCK = "cooperative_groups::this_thread_block()"

_OPS = {"plus": "a + b", "less": "b < a ? b : a", "greater": "a < b ? b : a", "bit_and": "a & b", "bit_or": "a | b",
        "bit_xor": "a ^ b"}


class _HelperContext(RuleContext, Protocol):
    def need_helper(self, key: str, start: int) -> None: ...


def reduce_code() -> str:
    ops = "".join(f"template <class T> struct {name} {{\n  __host__ __device__ T operator()(const T& a, const T& b) "
                  f"const {{ return {expr}; }}\n}};\n" for name, expr in _OPS.items())
    return ("namespace cooperative_groups {\n" + ops
            + "template <class Group, class T, class Op>\n__device__ inline T reduce(const Group& g, T v, Op op) {\n"
              "  const unsigned n = g.size(), rank = g.thread_rank();\n"
              "  for (unsigned o = 1; o < n; o <<= 1) {\n    T other = g.shfl_down(v, o);\n"
              "    if (rank + o < n) v = op(v, other);\n  }\n  return g.shfl(v, 0);\n}\n"
              "}  // namespace cooperative_groups\n")


def reduce_header(p: _HelperContext, start: int, end: int) -> None:
    """The include of ``<cooperative_groups/reduce.h>`` (already mapped to HIP's cooperative groups)."""
    p.need_helper(REDUCE_HELPER, end)
    p.find(fc.UNSUPPORTED_HEADER, "info", f"<{REDUCE_HEADER}>: HIP's cooperative groups have no cg::reduce; a "
           "compatibility helper this translation defines gives cg::reduce and cg::plus, less, greater, bit_and, "
           "bit_or and bit_xor over tiles and coalesced groups (shuffles, rank order)", start, end,
           name=REDUCE_HEADER, family="device")


def meta_group(p: RuleContext, name: str, node: tree_sitter.Node) -> bool:
    """``t.meta_group_rank()`` before ROCm 6.2 -> the block's thread rank over the tile size."""
    if p.target.rocm >= _META_GROUP_SINCE:
        return False
    field = node.parent
    call = field.parent if field is not None else None
    if (field is None or call is None or field.type != nodes.FIELD_EXPRESSION or call.type != nodes.CALL
            or not p.inside(call) or p.arguments(call)):
        return False  # the table's finding: needs ROCm 6.2
    tile = p.src[field.start_byte:node.start_byte].decode("utf-8", "surrogateescape")  # "t." or "t->"
    size = f"{tile}size()"
    if name == "meta_group_rank":
        new = f"({_BLOCK}.thread_rank() / {size})"
    else:
        new = f"(({_BLOCK}.size() + {size} - 1) / {size})"
    p.edit(call.start_byte, call.end_byte, new, "device")
    p.find(fc.API_NEWER_THAN_TARGET, "info", f"{name} needs ROCm 6.2 (the target is ROCm {p.target.rocm_text}): "
           "computed from the thread block's rank and size and the tile's size, which is its value for a tile "
           "partitioned from the thread block (a tile of a tile needs a hand port)", call.start_byte, call.end_byte,
           name=name, family="device")
    return True
