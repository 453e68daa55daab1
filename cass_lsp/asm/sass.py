"""NVIDIA SASS: ``nvcc -cubin -lineinfo`` + ``nvdisasm -c -gi``; resources from ``-Xptxas -v``.

nvdisasm prints ``/*addr*/ [@pred] OPCODE operands ;`` lines, ``//## File "f", line N`` markers
(with ``-gi`` a group of them: the innermost location first, each "inlined at" its caller) and
``.L_x_N:`` branch labels. Markers are sticky: an instruction without one keeps the line before.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable

from cass_lsp.asm import builder
from cass_lsp.asm.listing import Function, Resources


def _padding(opcode: str, operands: str, label: str | None) -> bool:
    # NOP fill after the last function and the `BRA` that loops on itself after EXIT are
    # alignment / trap code, not code of the line whose marker happens to come before them.
    return opcode == "NOP" or (opcode == "BRA" and label is not None and operands == f"`({label})")


DIALECT = builder.Dialect(
    name="sass",
    section=re.compile(r"^\s*\.section\s+(?P<name>[^\s,]+)"),
    code_section=re.compile(r"^\.text\."),
    label=re.compile(r"^(?P<name>[\w.$]+):"),
    local_label=re.compile(r"^\."),
    branch_label=re.compile(r"^\.L_x_\d+$"),
    instruction=re.compile(
        r"^\s+/\*(?P<address>[0-9a-fA-F]+)\*/\s+(?P<pred>@!?U?P\w+\s+)?"
        r"(?P<opcode>[A-Z][A-Z0-9_.]*)(?:\s+(?P<operands>[^;]*?))?\s*;"
    ),
    marker=re.compile(
        r'^//## File "(?P<file>[^"]+)", line (?P<line>\d+)(?: inlined at "(?P<atfile>[^"]+)", line (?P<atline>\d+))?'
    ),
    chained_markers=True,
    kernel=re.compile(r'^\s*\.other\s+(?P<name>[^\s,]+),\s*@"STO_CUDA_ENTRY'),
    no_line=_padding,
)

# sm_XY → (register file per SM, max resident warps per SM); from NVIDIA's occupancy tables.
_SM_LIMITS: dict[int, tuple[int, int]] = {
    70: (65536, 64),
    72: (65536, 64),
    75: (65536, 32),
    80: (65536, 64),
    86: (65536, 48),
    87: (65536, 48),
    89: (65536, 48),
    90: (65536, 64),
    100: (65536, 64),
    103: (65536, 64),
    120: (65536, 48),
    121: (65536, 48),
}
_REG_ALLOC_UNIT = 256  # registers are allocated per warp in blocks of 256


def register_limited_warps(registers: int, sm: int) -> int | None:
    """Warps per SM that fit the register file when each thread uses ``registers`` registers."""
    limits = _SM_LIMITS.get(sm)
    if limits is None or registers <= 0:
        return None
    regfile, max_warps = limits
    per_warp = -(-registers * 32 // _REG_ALLOC_UNIT) * _REG_ALLOC_UNIT
    return min(max_warps, regfile // per_warp)


_PTXAS_FUNCTION = re.compile(r"ptxas info\s*: (?:Compiling entry function|Function properties for) '?([^\s']+)'?")
_PTXAS_FRAME = re.compile(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")
_PTXAS_USED = re.compile(r"ptxas info\s*: Used (\d+) registers(?:, used (\d+) barriers)?(?:, (\d+) bytes smem)?")


def ptxas_resources(log: str) -> dict[str, Resources]:
    """Per-function resources from ``ptxas -v`` output (``nvcc -Xptxas -v`` on stderr)."""
    found: dict[str, Resources] = {}
    current: Resources | None = None
    for line in log.splitlines():
        m = _PTXAS_FUNCTION.search(line)
        if m:
            current = found.setdefault(m.group(1), Resources(wave_size=32))
            continue
        if current is None:
            continue
        m = _PTXAS_FRAME.search(line)
        if m:
            current.scratch_bytes, current.spill_store_bytes, current.spill_load_bytes = map(int, m.groups())
            continue
        m = _PTXAS_USED.search(line)
        if m:
            current.registers = int(m.group(1))
            current.barriers = int(m.group(2)) if m.group(2) else 0
            current.shared_bytes = int(m.group(3)) if m.group(3) else 0
    return found


def parse(
    disassembly: str,
    ptxas_log: str = "",
    *,
    arch: str = "sm_90",
    map_path: Callable[[str], str] = os.path.normpath,
) -> list[Function]:
    """Functions of an ``nvdisasm -c -gi`` listing, with resources from the ptxas log."""
    built = builder.build(disassembly, DIALECT, map_path)
    resources = ptxas_resources(ptxas_log)
    sm = int(arch.removeprefix("sm_").rstrip("af")) if arch.startswith("sm_") else 0
    for function in built.functions:
        # A callee cloned into a kernel's section is named `$kernel$callee` by nvdisasm.
        own = function.name.rsplit("$", 1)[-1]
        found = resources.get(own)
        if found is None:
            continue
        if found.registers:
            found.occupancy = register_limited_warps(found.registers, sm)
            found.occupancy_unit = "warps/SM (register-limited)" if found.occupancy else None
        function.resources = found
    return built.functions
