"""AMDGPU assembly (RDNA gfx11/gfx12, CDNA gfx90a/gfx942) from ``clang++-19 -x hip
--cuda-device-only -S -gline-tables-only``.

Source lines come from ``.loc file line col`` directives and the ``.file`` table; code inlined from
headers is attributed to its call sites through the inlined-call ranges in ``.debug_info``
(:mod:`.dwarf_asm`). Resources come from each function's ``; Kernel info:`` / ``; Function info:``
comments and the AMDGPU metadata note (spill counts, wave size).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable

from cass_lsp.asm import builder, dwarf_asm
from cass_lsp.asm.listing import Function, Resources, SourceLoc

DIALECT = builder.Dialect(
    name="amdgcn",
    # `.section NAME`, or a bare `.text` / `.data` / `.bss` / metadata block directive
    section=re.compile(
        r'^\s*(?:\.section\s+"?|(?=\.(?:text|data|bss|amdgpu_metadata|end_amdgpu_metadata)\s*$))(?P<name>[^\s,"]+)'
    ),
    code_section=re.compile(r"^\.text"),
    label=re.compile(r"^(?P<name>[A-Za-z_.$][\w.$]*):"),
    local_label=re.compile(r"^\.L"),
    branch_label=re.compile(r"^\.LBB\d+_\d+$"),
    instruction=re.compile(r"^\s+(?P<opcode>[a-z_][a-z0-9_.]*)(?:\s+(?P<operands>[^;]*?))?\s*(?:;.*)?$"),
    marker=re.compile(r"^\.loc\s+(?P<file>\d+)\s+(?P<line>\d+)(?:\s+(?P<column>\d+))?"),
    chained_markers=False,
    file_directive=re.compile(r'^\s*\.file\s+(?P<num>\d+)\s+"(?P<dir>[^"]*)"(?:\s+"(?P<name>[^"]*)")?'),
    kernel=re.compile(r"^\s*\.amdhsa_kernel\s+(?P<name>\S+)"),
)

_SIZE = re.compile(r"^\s*\.size\s+(?P<name>[^\s,]+),")
_INFO = re.compile(
    r"^; (?P<key>NumSgprs|NumVgprs|NumAgprs|TotalNumVgprs|ScratchSize|LDSByteSize|Occupancy):\s*(?P<value>\d+)"
)
_META_ITEM = re.compile(r"^  - \.(?P<key>[\w]+):\s*(?P<value>.*)$")
_META_KEY = re.compile(r"^    \.(?P<key>[\w]+):\s*(?P<value>.*)$")
_META_KEYS = {
    "name",
    "vgpr_count",
    "sgpr_count",
    "agpr_count",
    "vgpr_spill_count",
    "sgpr_spill_count",
    "group_segment_fixed_size",
    "private_segment_fixed_size",
    "wavefront_size",
    "uses_dynamic_stack",
}


def _info_comments(text: str) -> dict[str, dict[str, int]]:
    """function → the figures of its ``; Kernel info:`` / ``; Function info:`` block."""
    found: dict[str, dict[str, int]] = {}
    last: str | None = None
    for line in text.splitlines():
        if line.startswith(";"):
            m = _INFO.match(line)
            if m and last is not None:
                found.setdefault(last, {})[m.group("key")] = int(m.group("value"))
            continue
        m = _SIZE.match(line)
        if m:
            last = m.group("name")
    return found


def _metadata(text: str) -> dict[str, dict[str, str]]:
    """kernel name → selected keys of its ``amdhsa.kernels`` entry in the metadata note."""
    start = text.find(".amdgpu_metadata")
    if start < 0:
        return {}
    kernels: list[dict[str, str]] = []
    for line in text[start:].splitlines():
        m = _META_ITEM.match(line)
        if m:
            kernels.append({})
        m = m or _META_KEY.match(line)
        if m and kernels and m.group("key") in _META_KEYS:
            kernels[-1][m.group("key")] = m.group("value").strip()
        if line.startswith(".end_amdgpu_metadata") or line.strip() == ".end_amdgpu_metadata":
            break
    return {k["name"]: k for k in kernels if "name" in k}


def _resources(info: dict[str, int], meta: dict[str, str]) -> Resources:
    def number(key: str) -> int | None:
        return int(meta[key]) if meta.get(key, "").isdigit() else None

    vgprs = info.get("NumVgprs", number("vgpr_count"))
    agprs = info.get("NumAgprs", number("agpr_count"))
    total = info.get("TotalNumVgprs", vgprs)
    occupancy = info.get("Occupancy")
    return Resources(
        registers=total,
        vgprs=vgprs,
        sgprs=info.get("NumSgprs", number("sgpr_count")),
        agprs=agprs,
        shared_bytes=info.get("LDSByteSize", number("group_segment_fixed_size")),
        scratch_bytes=info.get("ScratchSize", number("private_segment_fixed_size")),
        vgpr_spills=number("vgpr_spill_count"),
        sgpr_spills=number("sgpr_spill_count"),
        wave_size=number("wavefront_size"),
        dynamic_stack=meta["uses_dynamic_stack"] == "true" if "uses_dynamic_stack" in meta else None,
        occupancy=occupancy,
        occupancy_unit="waves/SIMD" if occupancy is not None else None,
    )


def parse(text: str, *, map_path: Callable[[str], str] = os.path.normpath) -> list[Function]:
    """Functions of a clang ``-S`` listing with lines, inline call sites and resources."""
    built = builder.build(text, DIALECT, map_path)
    _attach_call_sites(text, built, map_path)
    info = _info_comments(text)
    meta = _metadata(text)
    for function in built.functions:
        if function.name in info or function.name in meta:
            function.resources = _resources(info.get(function.name, {}), meta.get(function.name, {}))
    return built.functions


def _attach_call_sites(text: str, built: builder.Built, map_path: Callable[[str], str]) -> None:
    calls = dwarf_asm.inlined_calls(text)
    if not calls:
        return
    total = sum(len(f.instructions) for f in built.functions)
    # position → [(depth, call site)], filled range by range
    sites: dict[int, list[tuple[int, SourceLoc]]] = {}
    for call in calls:
        file = built.files.get(call.call_file)
        if file is None:
            continue
        loc = SourceLoc(map_path(file), call.call_line, call.call_column)
        for start_label, end_label in call.ranges:
            start, end = built.labels.get(start_label), built.labels.get(end_label)
            if start is None or end is None:
                continue
            for position in range(start, min(end, total)):
                sites.setdefault(position, []).append((call.depth, loc))
    if not sites:
        return
    for function, first in zip(built.functions, built.starts, strict=True):
        for ins in function.instructions:
            chain = sites.get(first + ins.index)
            if chain and ins.line is not None:
                ins.inlined_at = [loc for _, loc in sorted(chain, key=lambda item: -item[0])]
