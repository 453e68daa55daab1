"""CUDA's bfloat16 (``cuda_bf16.h``) -> HIP's ``hip/hip_bf16.h`` where the target has it.

The HIPIFY tables map ``__nv_bfloat16`` to ``hip_bfloat16``, the C++ struct of ``hip/hip_bfloat16.h``
(ROCm 5.x), which has none of CUDA's conversion and arithmetic functions, and list those functions
as having no HIP equivalent. ROCm 6's ``hip/hip_bf16.h`` declares ``__hip_bfloat16`` with CUDA's
functions under CUDA's names: on such a target the types take HIP's names, the functions keep
theirs (:data:`SAME`, read from ROCm 6.2's ``amd_hip_bf16.h``), and the round-to-nearest spellings
HIP lacks become the ones that round the same way (:data:`RENAMED`). Before ROCm 6.0 the tables'
mapping stands.
"""

from __future__ import annotations

import tree_sitter

from cass_lsp.translate.context import RuleContext

SINCE = (6, 0)
"""The first ROCm whose ``hip/hip_bf16.h`` declares ``__hip_bfloat16`` and CUDA's functions."""
HEADER = "hip/hip_bf16.h"
TYPES = {
    "__nv_bfloat16": "__hip_bfloat16", "nv_bfloat16": "__hip_bfloat16",
    "__nv_bfloat162": "__hip_bfloat162", "nv_bfloat162": "__hip_bfloat162",
    "__nv_bfloat16_raw": "__hip_bfloat16_raw", "__nv_bfloat162_raw": "__hip_bfloat162_raw",
}
# HIP's __float2bfloat16 rounds to nearest even, as CUDA's _rn does
RENAMED = {"__float2bfloat16_rn": "__float2bfloat16", **TYPES}
SAME = frozenset({
    "__bfloat1622float2", "__bfloat162bfloat162", "__bfloat162float", "__bfloat16_as_short", "__bfloat16_as_ushort",
    "__double2bfloat16", "__float22bfloat162_rn", "__float2bfloat16", "__halves2bfloat162", "__high2bfloat16",
    "__high2bfloat162", "__highs2bfloat162", "__low2bfloat16", "__low2bfloat162", "__lows2bfloat162",
    "__short_as_bfloat16", "__ushort_as_bfloat16",
})
NAMES = frozenset({*RENAMED, *SAME})


def forward(p: RuleContext, name: str, node: tree_sitter.Node) -> bool:
    """A bfloat16 name on a target with ``hip/hip_bf16.h``: HIP's name (True when handled)."""
    if p.target.rocm < SINCE:
        return False
    if name in RENAMED:
        p.edit(node.start_byte, node.end_byte, RENAMED[name], "device")
    return True
