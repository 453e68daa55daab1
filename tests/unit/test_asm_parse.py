"""Listing parsers, diagnostics and line maps on real compiler output kept in tests/data/asm.

The files there were produced by nvcc/nvdisasm 13.5 and Debian's clang-19 from vecred.cu /
vecred.hip (see ../shared/reference/toolchains-recipe.sh); these tests need no compiler.
"""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from cass_lsp.asm import builder, diagnostics, dwarf_asm, sass
from cass_lsp.asm.listing import Listing, find_functions, instructions_at, user_location
from cass_lsp.compile.linemap import LineMap
from tests.unit import asm_samples as samples
from tests.unit.asm_samples import CU, DATA, HIP, line_of


@pytest.fixture(scope="module")
def sass_listing() -> Listing:
    return samples.sass_listing()


@pytest.fixture(scope="module")
def rdna_listing() -> Listing:
    return samples.rdna_listing()


def test_sass_functions_kinds_and_addresses(sass_listing: Listing) -> None:
    names = [f.name for f in sass_listing.functions]
    assert names == ["_Z16block_reduce_sumPKfPfi", "_Z7vec_addPKfS0_Pfi"]
    assert all(f.kind == "kernel" for f in sass_listing.functions)
    reduce = sass_listing.functions[0]
    assert [i.address for i in reduce.instructions[:3]] == [0x0, 0x10, 0x20]
    assert reduce.instructions[0].text == "LDC R1, c[0x0][0x28]"
    predicated = next(i for i in reduce.instructions if i.opcode == "LDG.E.CONSTANT")
    assert predicated.text.startswith("@!P0 LDG.E.CONSTANT") and predicated.operands == "R6, desc[UR6][R2.64]"
    assert reduce.labels[".L_x_1"] == 29  # branch target of the reduction loop


def test_sass_lines_and_inline_chain(sass_listing: Listing) -> None:
    barrier_line = line_of(CU, "__syncthreads();")
    bars = [i for _, i in instructions_at(sass_listing, CU, barrier_line)]
    assert [i.opcode for i in bars] == ["BAR.SYNC.DEFER_BLOCKING"]
    shfl = next(i for i in sass_listing.functions[0].instructions if i.opcode == "SHFL.DOWN")
    assert shfl.file is not None and shfl.file.endswith("sm_30_intrinsics.hpp")
    shfl_line = line_of(CU, "__shfl_down_sync")
    call_line = line_of(CU, "w = warp_reduce_sum(w);")
    assert [(Path(loc.file).name, loc.line) for loc in shfl.inlined_at] == [
        ("vecred.cu", shfl_line),
        ("vecred.cu", call_line),
    ]
    # hovering the call site finds the shuffle inlined into it
    assert "SHFL.DOWN" in {i.opcode for _, i in instructions_at(sass_listing, CU, call_line)}
    loc = user_location(shfl, CU)
    assert loc is not None and loc.line == shfl_line


def test_sass_padding_has_no_line(sass_listing: Listing) -> None:
    vec_add = sass_listing.functions[1]
    tail = vec_add.instructions[-12:]
    assert all(i.line is None for i in tail if i.opcode == "NOP")
    trap = next(i for i in vec_add.instructions if i.opcode == "BRA" and i.index > 15)
    assert trap.line is None  # the `.L_x_4: BRA .L_x_4` loop after EXIT


def test_sass_resources(sass_listing: Listing) -> None:
    reduce, vec_add = sass_listing.functions
    assert (reduce.resources.registers, reduce.resources.shared_bytes, reduce.resources.barriers) == (12, 1024, 1)
    assert (reduce.resources.scratch_bytes, reduce.resources.spill_store_bytes) == (0, 0)
    assert vec_add.resources.registers == 12 and vec_add.resources.shared_bytes == 0
    assert reduce.resources.occupancy == 64 and reduce.resources.occupancy_unit == "warps/SM (register-limited)"


def test_register_limited_occupancy() -> None:
    assert sass.register_limited_warps(32, 90) == 64
    assert sass.register_limited_warps(64, 90) == 32
    assert sass.register_limited_warps(255, 90) == 8
    assert sass.register_limited_warps(40, 86) == 48
    assert sass.register_limited_warps(40, 11) is None


def test_rdna_functions_lines_and_resources(rdna_listing: Listing) -> None:
    assert [f.name for f in rdna_listing.functions] == ["_Z7vec_addPKfS0_Pfi", "_Z16block_reduce_sumPKfPfi"]
    reduce = rdna_listing.functions[1]
    assert reduce.kind == "kernel"
    assert reduce.instructions[0].address is None
    load_line = line_of(HIP, "if (i < n) v = in[i];")
    loads = [i.opcode for _, i in instructions_at(rdna_listing, HIP, load_line)]
    assert "global_load_b32" in loads
    res = reduce.resources
    assert (res.vgprs, res.sgprs, res.shared_bytes, res.scratch_bytes, res.wave_size) == (5, 18, 1024, 0, 32)
    assert (res.occupancy, res.occupancy_unit, res.vgpr_spills, res.dynamic_stack) == (16, "waves/SIMD", 0, False)
    assert ".LBB1_2" in reduce.labels


def test_rdna_header_code_is_attributed_to_the_call_site(rdna_listing: Listing) -> None:
    barrier_line = line_of(HIP, "__syncthreads();")
    barriers = [i for _, i in instructions_at(rdna_listing, HIP, barrier_line)]
    assert "s_barrier" in {i.opcode for i in barriers}
    s_barrier = next(i for i in barriers if i.opcode == "s_barrier")
    assert s_barrier.file is not None and s_barrier.file.endswith("amd_device_functions.h")
    assert s_barrier.inlined_at[-1].file == HIP and s_barrier.inlined_at[-1].line == barrier_line
    # blockDim.x comes from amd_hip_runtime.h, inlined at the index computation of vec_add
    index_line = line_of(HIP, "int i = blockIdx.x * blockDim.x + threadIdx.x;")
    first = rdna_listing.functions[0].instructions[0]
    assert first.file is not None and first.file.endswith("amd_hip_runtime.h")
    assert (first.inlined_at[-1].file, first.inlined_at[-1].line) == (HIP, index_line)


def test_dwarf_inlined_ranges_from_assembler_text() -> None:
    calls = dwarf_asm.inlined_calls((DATA / "vecred.gfx1100.s").read_text())
    by_line = {c.call_line: c for c in calls if c.call_file == 0}
    shuffle_call = by_line[line_of(HIP, "w = warp_reduce_sum(w);")]
    assert shuffle_call.depth == 0 and len(shuffle_call.ranges) == 3  # from a DW_AT_ranges list
    nested = [c for c in calls if c.offset > shuffle_call.offset and c.end <= shuffle_call.end]
    assert nested and all(c.depth > shuffle_call.depth for c in nested)
    assert all(start.startswith(".L") and end.startswith(".L") for c in calls for start, end in c.ranges)


def test_builder_keeps_marker_state_per_function() -> None:
    text = "\n".join(
        [
            '\t.section\t.text.a,"ax",@progbits',
            "a:",
            '\t//## File "/x/k.cu", line 3',
            "        /*0000*/                   MOV R1, R2 ;",
            '\t.section\t.text.b,"ax",@progbits',
            "b:",
            "        /*0000*/                   EXIT ;",
        ]
    )
    built = builder.build(text, sass.DIALECT)
    a, b = built.functions
    assert (a.instructions[0].file, a.instructions[0].line) == ("/x/k.cu", 3)
    assert b.instructions[0].line is None  # a new function does not inherit the last marker


def test_line_map_follows_translation_edits() -> None:
    class E(msgspec.Struct):
        start_byte: int
        end_byte: int
        new_text: str

    original = "a\ncudaMalloc(x);\nb\nc\n"
    insert = E(0, 0, "#include <hip/hip_runtime.h>\n")
    rename = E(2, 12, "hipMalloc")
    join = E(original.index("b\n"), original.index("b\n") + 2, "")  # drops a whole line
    line_map = LineMap(original.encode(), [rename, insert, join])
    # rewritten: 1 #include / 2 a / 3 hipMalloc(x); / 4 c
    assert [line_map.original(n) for n in (1, 2, 3, 4)] == [1, 1, 2, 4]


def test_diagnostics_from_each_tool() -> None:
    def same(path: str, line: int) -> tuple[str, int]:
        return path, line

    nvcc = diagnostics.parse((DATA / "broken.nvcc.txt").read_text(), same)
    assert [(d.severity, d.line, d.file) for d in nvcc] == [("error", 3, "broken.cu"), ("error", 4, "broken.cu")]
    assert "undefined_name" in nvcc[0].message
    clang = diagnostics.parse((DATA / "broken.clang.txt").read_text(), same)
    assert [(d.severity, d.file, d.line, d.column) for d in clang] == [("error", "broken.hip", 4, 12)]
    ptxas = diagnostics.parse((DATA / "anytest.ptxas-error.txt").read_text(), same)
    errors = [d for d in ptxas if d.severity == "error"]
    assert errors and all(d.file is None and d.message.startswith("ptxas:") for d in errors)
    assert any("deprecated" in d.message for d in ptxas if d.severity == "warning")


def test_diagnostics_are_mapped_to_the_users_file() -> None:
    def mapped(path: str, line: int) -> tuple[str, int]:
        return "/project/k.cu", line - 1

    found = diagnostics.parse((DATA / "broken.clang.txt").read_text(), mapped)
    assert (found[0].file, found[0].line) == ("/project/k.cu", 3)


def test_find_functions_by_plain_demangled_and_mangled_name(sass_listing: Listing) -> None:
    for function in sass_listing.functions:
        function.demangled = {
            "_Z16block_reduce_sumPKfPfi": "block_reduce_sum(float const*, float*, int)",
            "_Z7vec_addPKfS0_Pfi": "vec_add(float const*, float const*, float*, int)",
        }[function.name]
    assert [f.name for f in find_functions(sass_listing, "block_reduce_sum")] == ["_Z16block_reduce_sumPKfPfi"]
    assert [f.name for f in find_functions(sass_listing, "_Z7vec_addPKfS0_Pfi")] == ["_Z7vec_addPKfS0_Pfi"]
    assert find_functions(sass_listing, "missing") == []


def test_listing_round_trips_through_msgspec(rdna_listing: Listing) -> None:
    data = msgspec.json.encode(rdna_listing)
    assert b'"kind":"listing"' in data and b'"inlinedAt"' in data
    assert msgspec.json.decode(data, type=Listing) == rdna_listing
