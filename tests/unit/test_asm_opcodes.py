"""Opcode facts: modifiers and suffixes fall back to the stem; real listings' opcodes are covered."""

from __future__ import annotations

from cass_lsp.asm.opcodes import describe, legend


def test_sass_modifiers_fall_back_to_the_stem() -> None:
    assert describe("BAR.SYNC.DEFER_BLOCKING", "sass") == describe("BAR.SYNC", "sass")
    assert "shared" in (describe("ATOMS.ADD", "sass") or "")
    assert "xor" in (describe("SHFL.BFLY", "sass") or "")
    assert describe("NOTANOPCODE", "sass") is None


def test_amdgcn_prefixes_pick_the_longest_known() -> None:
    assert "barrier" in (describe("s_barrier", "amdgcn") or "")
    assert describe("v_add_co_ci_u32_e32", "amdgcn") == describe("v_add_co_ci_u32", "amdgcn")
    assert "carry in" in (describe("v_add_co_ci_u32", "amdgcn") or "")
    assert "global memory" in (describe("global_atomic_add_f32", "amdgcn") or "")
    assert "LDS" in (describe("ds_bpermute_b32", "amdgcn") or "")
    assert describe("v_unknownthing", "amdgcn") is None


def test_legend_keeps_first_seen_order_and_skips_unknown() -> None:
    facts = legend(["LDG.E", "FFMA", "LDG.E", "WEIRD"], "sass")
    assert list(facts) == ["LDG.E", "FFMA"]


def test_real_listings_opcodes_mostly_have_facts() -> None:
    """Most opcodes in the real sm_90 / gfx1100 sample listings are described."""
    from tests.unit.asm_samples import rdna_listing, sass_listing

    for dialect, listing in (("sass", sass_listing()), ("amdgcn", rdna_listing())):
        opcodes = {ins.opcode for f in listing.functions for ins in f.instructions}
        described = {op for op in opcodes if describe(op, dialect)}  # type: ignore[arg-type]
        assert len(described) >= 0.8 * len(opcodes), sorted(opcodes - described)
