"""Inline PTX on the CPU runtime: kernels shaped like real ones, built with g++ and run; each value
is checked against the PTX ISA's definition computed here, and an unknown instruction is refused."""

from __future__ import annotations

from pathlib import Path

from cass_lsp.core import proc
from cass_lsp.cpu import build_program, prepare_source, unsupported
from tests.cpu.conftest import RUN_TIMEOUT_S, need_gxx

PROGRAM = Path(__file__).parent / "kernels" / "inline_ptx"
M32 = 0xFFFFFFFF


def _bfe(value: int, pos: int, length: int, signed: bool) -> int:
    sign = (value >> min(pos + length - 1, 31)) & 1 if signed and length else 0
    out = 0
    for i in range(32):
        bit = (value >> (pos + i)) & 1 if i < length and pos + i <= 31 else sign
        out |= bit << i
    return out


def _expected(i: int, x: int) -> list[int]:
    lane = (i % 64) % 32
    rotated = ((x * 0x9E3779B1) & M32)
    hash_ = (((rotated << 13) | (rotated >> 19)) & M32) ^ lane
    hi = (x * 0x9E3779B1) >> 32
    rev = int(f"{x:032b}"[::-1], 2)
    pop, lead = bin(x).count("1"), 32 - x.bit_length()
    mix = x ^ hi ^ rev  # lop3 0x96 is a ^ b ^ c
    total = ((0xFFFFFFFF * ((x + 1) & M32)) + 0x1FFFFFFFF + i) & (2**64 - 1)
    swapped = int.from_bytes(x.to_bytes(4, "little"), "big")
    return [lane, _bfe(x, 4, 8, False), _bfe(x, 28, 4, True), swapped, total & M32, total >> 32, hash_, hi,
            rev, pop | (lead << 8), mix, -1]  # fmt: skip


def _ballot(inputs: list[int], i: int) -> int:
    warp = (i // 32) * 32
    return sum(((inputs[warp + k] & 1) << k) for k in range(32))


def test_inline_ptx_kernels_run_with_the_isa_semantics(tmp_path: Path) -> None:
    need_gxx()
    for name in ("inline_ptx.cu", "bits.cuh"):
        (tmp_path / name).write_text(prepare_source((PROGRAM / name).read_text()))
        assert unsupported((PROGRAM / name).read_text()) == []
    built = build_program([tmp_path / "inline_ptx.cu"], tmp_path / "prog", hip=False)
    assert built.ok, built.log
    result = proc.run([built.exe], timeout=RUN_TIMEOUT_S)
    assert result.ok, result.text()
    rows = [[int(v) for v in line.split()] for line in result.stdout.decode().splitlines()]
    assert len(rows) == 256
    inputs = [row[0] for row in rows]
    for i, (x, *got) in enumerate(rows):
        want = _expected(i, x)
        want[-1] = _ballot(inputs, i)
        assert got == want, (i, x)


def test_unknown_ptx_instruction_is_refused_by_name() -> None:
    text = """\
__device__ float tanh_approx(float x) {
  float y;
  asm("{\\n\\t"
      "tanh.approx.f32 %0, %1;\\n\\t"
      "}" : "=f"(y) : "f"(x));
  return y;
}
"""
    found = unsupported(text)
    assert [(u.construct, u.line) for u in found] == [("inline assembly", 3)]
    assert "PTX instruction tanh.approx.f32 (line 4)" in found[0].detail
    assert "tanh.approx" not in prepare_source(text).split("asm(")[0]
    assert prepare_source(text).count("\n") == text.count("\n")


def test_amd_assembly_is_refused_as_such() -> None:
    text = '__global__ void k() {\n  asm volatile("s_waitcnt lgkmcnt(0)" ::: "memory");\n}\n'
    found = unsupported(text)
    assert [(u.construct, u.line) for u in found] == [("inline assembly", 1)]
    assert "AMD GCN instruction s_waitcnt" in found[0].detail
