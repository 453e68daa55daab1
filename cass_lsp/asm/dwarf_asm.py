"""Inlined-call ranges from the DWARF that LLVM writes *as assembler text* in a ``-S`` listing.

``clang -S -gline-tables-only`` keeps only the innermost location in each ``.loc``: code inlined from
a header (``blockDim.x``, ``__syncthreads()``, a helper in a ``.cuh``) points at the header line. The
call sites live in ``.debug_info`` as ``DW_TAG_inlined_subroutine`` entries whose address ranges are
label expressions (``.Ltmp3-.Lfunc_begin0``) and whose ``DW_AT_call_file``/``DW_AT_call_line`` name
the caller. LLVM's verbose assembly comments every value (``; DW_AT_call_line``) and every entry's
offset and size (``Abbrev [4] 0x32:0x1c DW_TAG_...``), which is enough to rebuild the nesting and
the ranges without an object file.
"""

from __future__ import annotations

import dataclasses
import re

_SECTION = re.compile(r"^\s*\.section\s+\"?(?P<name>[^\s,\"]+)")
_ENTRY = re.compile(r";\s*Abbrev \[\d+\] 0x(?P<off>[0-9a-f]+):0x(?P<size>[0-9a-f]+) (?P<tag>DW_TAG_\w+)")
_ATTR = re.compile(r"^\s*\.(?:byte|short|long|quad|uleb128|sleb128)\s+(?P<value>[^;]+?)\s*;\s*(?P<attr>DW_\w+)")
_VALUE = re.compile(r"^\s*\.(?:byte|short|long|quad|uleb128|sleb128)\s+(?P<value>[^;]+?)\s*(?:;\s*(?P<comment>.*))?$")
_LABEL_DEF = re.compile(r"^(?P<name>\.L[\w.$]+):")
_FIRST_LABEL = re.compile(r"(\.L[\w.$]+)")


@dataclasses.dataclass
class InlinedCall:
    offset: int
    end: int
    """DIE offset and end: an entry nests inside every entry whose [offset, end) contains it."""
    call_file: int
    call_line: int
    call_column: int
    ranges: list[tuple[str, str]]
    """(start label, end label) pairs."""
    depth: int = 0


def inlined_calls(text: str) -> list[InlinedCall]:
    """Every ``DW_TAG_inlined_subroutine`` with its label ranges and nesting depth."""
    sections = _split_sections(text)
    addr = _addr_table(sections.get(".debug_addr", []))
    rnglists = _rnglists(sections.get(".debug_rnglists", []), addr)
    calls: list[InlinedCall] = []
    current: InlinedCall | None = None
    for line in sections.get(".debug_info", []):
        m = _ENTRY.search(line)
        if m:
            current = None
            if m.group("tag") == "DW_TAG_inlined_subroutine":
                offset = int(m.group("off"), 16)
                current = InlinedCall(offset, offset + int(m.group("size"), 16), 0, 0, 0, [])
                calls.append(current)
            continue
        if current is None:
            continue
        m = _ATTR.match(line)
        if not m:
            continue
        attr, value = m.group("attr"), m.group("value")
        if attr == "DW_AT_low_pc":
            start = _label_or_index(value, addr)
            if start:
                current.ranges = [(start, "")]
        elif attr == "DW_AT_high_pc" and current.ranges:
            end = _FIRST_LABEL.search(value)
            if end:
                current.ranges = [(current.ranges[0][0], end.group(1))]
        elif attr == "DW_AT_ranges":
            current.ranges = rnglists.get(_int(value), [])
        elif attr == "DW_AT_call_file":
            current.call_file = _int(value)
        elif attr == "DW_AT_call_line":
            current.call_line = _int(value)
        elif attr == "DW_AT_call_column":
            current.call_column = _int(value)
    for call in calls:
        call.ranges = [r for r in call.ranges if r[0] and r[1]]
        call.depth = sum(1 for other in calls if other.offset < call.offset and call.end <= other.end)
    return [c for c in calls if c.ranges and c.call_line > 0]


def _split_sections(text: str) -> dict[str, list[str]]:
    sections: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in text.splitlines():
        m = _SECTION.match(line)
        if m:
            name = m.group("name")
            current = sections.setdefault(name, []) if name.startswith(".debug_") else None
            continue
        if line.strip() in (".text", ".data", ".bss"):
            current = None
            continue
        if current is not None:
            current.append(line)
    return sections


def _int(value: str) -> int:
    try:
        return int(value, 0)
    except ValueError:
        return 0


def _label_or_index(value: str, addr: list[str]) -> str | None:
    label = _FIRST_LABEL.search(value)
    if label:
        return label.group(1)
    index = _int(value)
    return addr[index] if 0 <= index < len(addr) else None


def _addr_table(lines: list[str]) -> list[str]:
    """Labels of ``.debug_addr`` in order (DW_FORM_addrx indexes into it)."""
    table: list[str] = []
    started = False
    for line in lines:
        if _LABEL_DEF.match(line) and "addr_table_base" in line:
            started = True
            continue
        if started and line.strip().startswith(".quad"):
            label = _FIRST_LABEL.search(line)
            if label:
                table.append(label.group(1))
    return table


def _rnglists(lines: list[str], addr: list[str]) -> dict[int, list[tuple[str, str]]]:
    """Range list index (DW_FORM_rnglistx) → (start label, end label) pairs."""
    order: list[str] = []  # the offset table: list labels by index
    lists: dict[str, list[tuple[str, str]]] = {}
    current: list[tuple[str, str]] | None = None
    pending: list[str] = []  # operands of the entry being read
    kind = ""
    in_offsets = False
    for line in lines:
        m = _LABEL_DEF.match(line)
        if m:
            name = m.group("name")
            in_offsets = "rnglists_table_base" in name
            if name.startswith(".Ldebug_ranges"):
                current = lists.setdefault(name, [])
            continue
        m = _VALUE.match(line)
        if not m:
            continue
        value, comment = m.group("value"), (m.group("comment") or "")
        if in_offsets:
            label = _FIRST_LABEL.search(value)
            if label:
                order.append(label.group(1))
            continue
        if current is None:
            continue
        if comment.startswith("DW_RLE_"):
            kind, pending = comment.split()[0], []
            continue
        pending.append(value)
        if len(pending) == 2:
            pair = _range(kind, pending, addr)
            if pair:
                current.append(pair)
            pending = []
    return {i: lists.get(label, []) for i, label in enumerate(order)}


def _range(kind: str, operands: list[str], addr: list[str]) -> tuple[str, str] | None:
    """An RLE entry as labels. Offsets and lengths are written as label differences whose first
    label is the address meant; the ``startx``/``endx`` operands index ``.debug_addr``."""
    first, second = operands
    if kind.startswith("DW_RLE_startx"):
        start = _label_or_index(first, addr)
    else:
        label = _FIRST_LABEL.search(first)
        start = label.group(1) if label else None
    if kind == "DW_RLE_startx_endx":
        end = _label_or_index(second, addr)
    else:
        label = _FIRST_LABEL.search(second)
        end = label.group(1) if label else None
    return (start, end) if start and end else None
