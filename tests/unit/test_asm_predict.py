"""Assembly prediction scoring: opcode sequences of predicted text against a compiled listing."""

from __future__ import annotations

from cass_lsp.asm.listing import Function, Instruction, Resources
from cass_lsp.asm.predict import agreement, opcodes_of


def function(*opcodes: str) -> Function:
    instructions = [Instruction(index=i, address=None, opcode=op, operands="", text=op) for i, op in enumerate(opcodes)]
    return Function(name="k", demangled="k", kind="kernel", instructions=instructions, resources=Resources())


def test_opcodes_skip_labels_directives_comments_and_predicates() -> None:
    text = "k:\n  .p2align 8\n; a comment\n  s_load_b64 s[0:1], s[4:5], 0x0\n@P0 BRA `(.L_1) ;\n\n  S_ENDPGM\n"
    assert opcodes_of(text) == ["s_load_b64", "bra", "s_endpgm"]


def test_agreement_is_one_for_the_same_sequence_and_falls_with_differences() -> None:
    compiled = function("s_load_b64", "v_add_f32", "global_store_b32", "s_endpgm")
    assert agreement("s_load_b64 a\nv_add_f32 b\nglobal_store_b32 c\ns_endpgm", compiled) == 1.0
    partly = agreement("s_load_b64 a\nv_mul_f32 b\ns_endpgm", compiled)
    assert 0.0 < partly < 1.0
    assert agreement("", compiled) == 0.0
