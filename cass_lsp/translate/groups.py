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
* A group's ``shfl``/``shfl_up``/``shfl_down``/``shfl_xor`` of a value that is not plainly a number
  (``tile.shfl_xor(result.y, 1)`` of a ``uint4``, shfl_scan): CUDA's shuffle any trivially copyable
  type, HIP's integers and floating point only. The call becomes ``cass_shfl_xor(tile, v, 1)``, a
  helper that calls HIP's for those and moves any other type of a size divisible by 4 as 32-bit
  words; a value whose declaration in the file is of an arithmetic type keeps HIP's call.
"""

from __future__ import annotations

import re
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

SHUFFLES = frozenset({"shfl", "shfl_up", "shfl_down", "shfl_xor"})
SHUFFLE_HELPER = "cg-shuffle"
SHUFFLE_GUARD = "CASS_CG_SHUFFLE"
SHUFFLE_WHY = "CUDA's group shuffles take any trivially copyable type, HIP's numbers only: others move as 32-bit words"
# A group variable: ``auto t = cg::tiled_partition<32>(b)``, ``thread_block_tile<32> t``, ``coalesced_group g``.
_GROUP_DECLARATION = (r"(?:\b(?:thread_block_tile\s*<[^;>]*>|coalesced_group)\s+(?:const\s+)?&?\s*{name}\b"
                      r"|\b{name}\s*=\s*(?:\w+\s*::\s*)*(?:tiled_partition|coalesced_threads)\b)")
_ARITHMETIC = (r"\b(?:(?:unsigned|signed|const|volatile|long|short|register|static)\s+)*(?:int|unsigned|float|double|"
               r"long|short|char|bool|size_t|u?int(?:8|16|32|64)_t|__half|half)\s+(?:\w+\s*(?:=[^,;]*)?,\s*)*\**{name}\b")

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


def shuffle_code() -> str:
    one = ("template <class G, class T> __device__ inline T cass_{op}(const G& g, const T& v, unsigned int arg) {{\n"
           "  if constexpr (std::is_arithmetic<T>::value || sizeof(T) % sizeof(int) != 0) {{\n"
           "    return g.{op}(v, arg);\n  }} else {{\n    int words[sizeof(T) / sizeof(int)];\n"
           "    __builtin_memcpy(words, &v, sizeof(T));\n"
           "    for (unsigned int i = 0; i < sizeof(T) / sizeof(int); ++i) words[i] = g.{op}(words[i], arg);\n"
           "    T r;\n    __builtin_memcpy(&r, words, sizeof(T));\n    return r;\n  }}\n}}\n")
    return "#include <type_traits>\n" + "".join(one.format(op=op) for op in sorted(SHUFFLES))


def tile_shuffle(p: _HelperContext, name: str, node: tree_sitter.Node) -> bool:
    """``tile.shfl_xor(v, m)`` of a value not declared as a number -> ``cass_shfl_xor(tile, v, m)``."""
    field = node.parent
    call = field.parent if field is not None else None
    if (field is None or call is None or field.type != nodes.FIELD_EXPRESSION or call.type != nodes.CALL
            or not p.inside(call)):
        return True
    group = field.child_by_field_name(nodes.Field.ARGUMENT)
    args = p.arguments(call)
    source = p.file_source.decode("utf-8", "surrogateescape")
    if (group is None or group.type != nodes.IDENTIFIER or len(args) != 2 or p.src[group.end_byte:node.start_byte] != b"."
            or not re.search(_GROUP_DECLARATION.format(name=re.escape(p.text(group))), source)):
        return True
    value = p.text(args[0]).strip()
    if re.fullmatch(r"[\d.]+[fFuUlL]*", value) or (
            re.fullmatch(r"\w+", value) and re.search(_ARITHMETIC.format(name=re.escape(value)), source)):
        return True  # a number: HIP's shuffle takes it
    p.edit(call.start_byte, args[0].start_byte, f"cass_{name}({p.text(group)}, ", "device")
    p.need_helper(SHUFFLE_HELPER, call.start_byte)
    p.find(fc.UNSUPPORTED_API, "info", f"{name} of {p.text(args[0])}: HIP's group shuffles take integers and floating "
           f"point only; cass_{name}, a compatibility helper this translation defines, moves other types as 32-bit "
           "words (CUDA shuffles any trivially copyable type)", call.start_byte, call.end_byte, name=name,
           family="device")
    return True
