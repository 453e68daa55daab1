"""Hover, resource and listing views rendered from real listings (tests/data/asm)."""

from __future__ import annotations

import difflib

import pytest

from cass_lsp.asm import view
from cass_lsp.asm.listing import CompileFailure, Listing, SourceLoc, Unavailable
from cass_lsp.compile.diagnostic import CompilerDiagnostic
from tests.unit import asm_samples as samples
from tests.unit.asm_samples import CU, line_of


@pytest.fixture(scope="module")
def listings() -> tuple[Listing, Listing]:
    nv, amd = samples.sass_listing(), samples.rdna_listing()
    # One source file for both sides, as the server has it (the AMD listing of a .cu file is mapped
    # back to the .cu): move the .hip sample's locations onto the matching .cu lines.
    hip_lines = open(samples.HIP).read().splitlines()  # noqa: SIM115
    cu_lines = open(CU).read().splitlines()  # noqa: SIM115
    to_cu: dict[int, int] = {}
    for block in difflib.SequenceMatcher(None, hip_lines, cu_lines, autojunk=False).get_matching_blocks():
        to_cu.update({block.a + k + 1: block.b + k + 1 for k in range(block.size)})
    for function in amd.functions:
        function.demangled = function.name
        for ins in function.instructions:
            if ins.file == samples.HIP and ins.line:
                ins.file, ins.line = CU, to_cu.get(ins.line, 0)
            ins.inlined_at = [
                SourceLoc(CU, to_cu.get(loc.line, 0), loc.column) if loc.file == samples.HIP else loc
                for loc in ins.inlined_at
            ]
    amd.source = CU
    for function in nv.functions:
        function.demangled = function.name
    return nv, amd


def test_line_hover_shows_each_target(listings: tuple[Listing, Listing]) -> None:
    nv, amd = listings
    barrier = line_of(CU, "__syncthreads();")
    text = view.line_hover({"sm_90": nv, "gfx1100": amd}, CU, barrier)
    assert "**sm_90**" in text and "BAR.SYNC.DEFER_BLOCKING 0x0" in text
    assert "**gfx1100**" in text and "s_barrier" in text
    assert "// amd_device_functions.h:" in text  # header code names the header line it came from
    assert "12 regs" in text and "waves/SIMD" in text  # the kernel's one-line resource summary
    assert "```sass" in text


def test_line_hover_truncates_with_more(listings: tuple[Listing, Listing]) -> None:
    nv, _ = listings
    load = line_of(CU, "if (i < n) v = in[i];")
    text = view.line_hover({"sm_90": nv}, CU, load, max_instructions=2)
    assert "+" in text and "more" in text
    body = text.split("```sass\n", 1)[1].split("```", 1)[0]
    assert len(body.strip().splitlines()) == 2


def test_line_hover_explains_missing_targets(listings: tuple[Listing, Listing]) -> None:
    nv, _ = listings
    failure = CompileFailure(
        target="gfx1100",
        source=CU,
        output="",
        translated=True,
        diagnostics=[CompilerDiagnostic("error", "use of undeclared identifier '__shfl_down_sync'", CU, 28, 10)],
    )
    missing = Unavailable(target="gfx942", message="clang++-19 not found", hint="apt-get install clang-19")
    text = view.line_hover(
        {"sm_90": nv, "gfx1100": failure, "gfx942": missing, "gfx1200": "compiling…"},
        CU,
        line_of(CU, "__syncthreads();"),
    )
    assert (
        "does not compile — in the rule translation: `use of undeclared identifier '__shfl_down_sync'` (line 28)"
        in text
    )
    assert "clang++-19 not found (install: `apt-get install clang-19`)" in text
    assert "**gfx1200** — compiling…" in text
    assert "BAR.SYNC" in text  # the target that works still shows


def test_kernel_resources_side_by_side(listings: tuple[Listing, Listing]) -> None:
    nv, amd = listings
    table = view.kernel_resources({"sm_90": nv, "gfx1100": amd}, "_Z16block_reduce_sumPKfPfi")
    lines = table.splitlines()
    assert lines[2] == "| | sm_90 | gfx1100 |"
    assert "| registers | 12 | 5 VGPR · 18 SGPR |" in lines
    assert "| shared / LDS | 1 KiB | 1 KiB |" in lines
    assert "| occupancy | 64 warps/SM (register-limited) | 16 waves/SIMD |" in lines


def test_render_listing_interleaves_source(listings: tuple[Listing, Listing]) -> None:
    nv, _ = listings
    source_lines = open(CU).read().splitlines()  # noqa: SIM115

    def source(file: str, line: int) -> str:
        return source_lines[line - 1] if file == CU else ""

    text = view.render_listing(nv, source, kernel="_Z16block_reduce_sumPKfPfi")
    assert text.startswith("== sm_90 · vecred.cu")
    assert "   41 |   __syncthreads();" in text
    assert "        01b0  BAR.SYNC.DEFER_BLOCKING 0x0" in text
    assert "  .L_x_1:" in text
    assert "; sm_30_intrinsics.hpp:439" in text  # header instruction shown under its user line
    assert "_Z7vec_add" not in text
    only = view.render_listing(nv, source, line=41)
    assert only.count("BAR.SYNC") == 1 and "LDG" not in only
    short = view.render_listing(nv, source, kernel="_Z16block_reduce_sumPKfPfi", limit=5)
    assert "… +59 more instructions" in short
