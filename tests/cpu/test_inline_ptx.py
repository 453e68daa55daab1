"""Inline PTX on the CPU runtime: kernels shaped like real ones, built with g++ and run; each value
is checked against the PTX ISA's definition computed here, and an unknown instruction is refused."""

from __future__ import annotations

import math
import struct
from pathlib import Path

import pytest

from cass_lsp.core import proc
from cass_lsp.cpu import build, build_program, prepare_source, unsupported
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


def _expected(i: int, x: int, neighbour: int) -> list[int]:
    lane = (i % 64) % 32
    rotated = ((x * 0x9E3779B1) & M32)
    hash_ = (((rotated << 13) | (rotated >> 19)) & M32) ^ lane ^ neighbour
    hi = (x * 0x9E3779B1) >> 32
    rev = int(f"{x:032b}"[::-1], 2)
    pop, lead = bin(x).count("1"), 32 - x.bit_length()
    mix = x ^ hi ^ rev  # lop3 0x96 is a ^ b ^ c
    total = ((0xFFFFFFFF * ((x + 1) & M32)) + 0x1FFFFFFFF + i) & (2**64 - 1)
    swapped = int.from_bytes(x.to_bytes(4, "little"), "big")
    warp = (i % 64) // 32
    return [lane | (warp << 16), _bfe(x, 4, 8, False), _bfe(x, 28, 4, True), swapped, total & M32, total >> 32, hash_, hi,
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
        want = _expected(i, x, inputs[(i // 64) * 64 + (i % 64 + 1) % 64])
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
    assert "PTX instruction tanh.approx.f32 is not" in found[0].detail
    assert "tanh.approx" not in prepare_source(text).split("asm(")[0]
    assert prepare_source(text).count("\n") == text.count("\n")


def test_shuffle_predicate_output_is_refused_not_guessed() -> None:
    text = """\
__device__ unsigned take(unsigned v, int lane) {
  unsigned r;
  asm volatile("{ .reg .pred p; shfl.sync.idx.b32 %0|p, %1, %2, 0x1f, 0xffffffff; }" : "=r"(r) : "r"(v), "r"(lane));
  return r;
}
"""
    found = unsupported(text)
    assert [u.line for u in found] == [2] and "PTX instruction shfl.sync.idx.b32 is not" in found[0].detail


@pytest.mark.parametrize(
    ("statement", "instruction"),
    [
        ('asm("cvt.rz.f32.f64 %0, %1;" : "=f"(y) : "d"((double)x));', "cvt.rz.f32.f64"),
        ('asm("fma.rn.ftz.f32 %0, %1, %1, %1;" : "=f"(y) : "f"(x));', "fma.rn.ftz.f32"),
        ('asm("add.rz.f32 %0, %1, %1;" : "=f"(y) : "f"(x));', "add.rz.f32"),
        ('asm("cvt.rz.f16.f32 %0, %1;" : "=h"(h) : "f"(x));', "cvt.rz.f16.f32"),
        ('asm("@p bra DONE;" : : "f"(x));', "bra"),
    ],
)
def test_float_forms_the_cpu_would_round_differently_are_refused(statement: str, instruction: str) -> None:
    text = f"__device__ float f(float x) {{\n  float y = 0; unsigned short h;\n  {statement}\n  return y + h;\n}}\n"
    found = unsupported(text)
    assert [(u.construct, u.line) for u in found] == [("inline assembly", 2)]
    assert f"PTX instruction {instruction} is not" in found[0].detail


def test_memory_operand_is_refused() -> None:
    found = unsupported('__device__ void f(int& v) { asm("st.u32 %0, 1;" : "=m"(v)); }\n')
    assert [u.construct for u in found] == ["inline assembly"] and '"=m"' in found[0].detail


def test_amd_assembly_is_refused_as_such() -> None:
    text = '__global__ void k() {\n  asm volatile("s_waitcnt lgkmcnt(0)" ::: "memory");\n}\n'
    found = unsupported(text)
    assert [(u.construct, u.line) for u in found] == [("inline assembly", 1)]
    assert "AMD GCN instruction s_waitcnt" in found[0].detail


# PTX ISA, prmt: for each mode and c[1:0], the source bytes of {d.b3, d.b2, d.b1, d.b0}.
_PRMT_TABLE = {
    "f4e": ["3210", "4321", "5432", "6543"], "b4e": ["5670", "6701", "7012", "0123"],
    "rc8": ["0000", "1111", "2222", "3333"], "ecl": ["3210", "3211", "3222", "3333"],
    "ecr": ["0000", "1110", "2210", "3210"], "rc16": ["1010", "3232", "1010", "3232"],
}  # fmt: skip


def _prmt(a: int, b: int, c: int, mode: str) -> int:
    source = (b << 32) | a
    selected = _PRMT_TABLE[mode][c & 3]
    return sum(((source >> (8 * int(s))) & 0xFF) << (8 * (3 - k)) for k, s in enumerate(selected))


def _bfind(value: int, signed: bool, shiftamt: bool) -> int:
    if signed and value & 0x80000000:
        value = ~value & M32
    if value == 0:
        return M32
    return 31 - (value.bit_length() - 1) if shiftamt else value.bit_length() - 1


def _forms(t: int, words: list[int], floats: list[float]) -> list[int]:
    a, b = words[2 * t], words[2 * t + 1]
    pair = (b << 32) | a
    clamp = min(t + 20, 32)
    x, y = (a << 32) | b, (b << 32) | a
    difference = (x - y) % 2**64
    product = a * b
    lo_sum = (product & M32) + t
    hi = ((product >> 32) + 7 + (lo_sum >> 32)) & M32
    f = floats[t]
    product32 = struct.unpack("<f", struct.pack("<f", f * struct.unpack("<f", struct.pack("<f", 1.1))[0]))[0]
    (half,) = struct.unpack("<H", struct.pack("<e", product32))  # binary16, round to nearest even
    (back,) = struct.unpack("<I", struct.pack("<f", struct.unpack("<e", struct.pack("<H", half))[0]))
    lane = t % 32
    up = words[2 * (t - 2)] if lane >= 2 else a
    bfi = b
    for i in range(12):
        if t % 32 + i <= 31:
            bit = 1 << (t % 32 + i)
            bfi = (bfi | bit) if (a >> i) & 1 else (bfi & ~bit)
    return [
        *(_prmt(a, b, t, mode) for mode in ("f4e", "b4e", "rc8", "ecl", "ecr", "rc16")),
        (pair >> clamp) & M32, ((pair << clamp) >> 32) & M32,
        _bfind(a, True, False), _bfind(b >> (t % 32), False, True),
        difference & M32, difference >> 32, lo_sum & M32, hi, product & M32, product >> 32,
        round(f) & M32, math.floor(f) & M32, min(max(math.trunc(f * 40), 0), 255),
        sum(words[4 * (t // 2) : 4 * (t // 2) + 4]) & M32,
        words[2 * (t ^ 1)], up, bfi, a ^ b, b, a, ((((a + 1) & M32) | (b << 32)) >> 16) & M32, half, back,
    ]  # fmt: skip


def test_each_translated_form_matches_the_isa(tmp_path: Path) -> None:
    need_gxx()
    source = PROGRAM / "forms.cu"
    assert unsupported(source.read_text()) == []
    built = build(source, source.read_text(), tmp_path / "forms")
    assert built.ok, built.log
    result = proc.run([built.exe], timeout=RUN_TIMEOUT_S)
    assert result.ok, result.text()
    rows = [[int(v) for v in line.split()] for line in result.stdout.decode().splitlines()]
    words = [((i * 0x9E3779B9) & M32) ^ 0xA5A5F00F for i in range(128)]
    floats = [(i - 32) * 0.75 + 0.5 for i in range(64)]
    assert len(rows) == 64
    for t, row in enumerate(rows):
        assert row == _forms(t, words, floats), t


def test_votes_shuffles_and_timing_registers(tmp_path: Path) -> None:
    need_gxx()
    source = PROGRAM / "warp.cu"
    assert unsupported(source.read_text()) == []
    built = build(source, source.read_text(), tmp_path / "warp")
    assert built.ok, built.log
    result = proc.run([built.exe], timeout=RUN_TIMEOUT_S)
    assert result.ok, result.text()
    rows = [[int(v) for v in line.split()] for line in result.stdout.decode().splitlines()]
    flags = [1 if i < 32 else int(i % 3 == 0) if i < 64 else 0 for i in range(96)]
    for t, row in enumerate(rows):
        warp = flags[32 * (t // 32) : 32 * (t // 32) + 32]
        lane = t % 32
        down = (t + 4) * 10 if lane + 4 < 32 else t * 10  # out of the segment: the lane's own value
        want = [int(all(warp)), int(any(warp)), int(len(set(warp)) == 1), (32 * (t // 32) + 3) * 10, down, 3, 0, 1]
        assert row == want, t
    assert len(rows) == 96
