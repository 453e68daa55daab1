"""bfloat16 on the CPU runtime (cuda_bf16.h, and hip/hip_bf16.h over the same implementation): a
kernel converts and computes on chosen bit patterns (ties, values just off a tie, a double whose
float rounding would land on a tie, subnormals, overflow, NaN), and every result is checked against
rounding done here exactly, with fractions."""

from __future__ import annotations

import struct
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction

import pytest

from cass_lsp.core import proc
from cass_lsp.cpu import build
from tests.cpu.conftest import RUN_TIMEOUT_S, need_gxx

_PROGRAM = r"""
#include <cstdio>
#include <cstring>
{includes}

typedef {bf16} bf16;
constexpr unsigned kFloats[] = {{0x3f800000u, 0x3f808000u, 0x3f818000u, 0x3f808001u, 0x3f807fffu, 0xbf818000u,
                                 0xbf808001u, 0x7f7fffffu, 0x00008000u, 0x00018000u, 0x7fc00001u, 0xff800000u,
                                 0x80000000u, 0x3f7fffffu, 0x007fffffu, 0xc2f6e979u}};
constexpr unsigned long long kDoubles[] = {{0x3ff0100000010000ull, 0x3ff0100000000000ull, 0xbff0300000000001ull,
                                            0x47efe00000000001ull, 0x3810000000000000ull}};
constexpr int kInts[] = {{257, 259, -771, 16777217, 2147483647, -65}};
// a, b, c: sums and products, and fma triples whose float result would round to a tie
constexpr unsigned short kTriples[][3] = {{{{0x3f80, 0x3b80, 0x3f80}}, {{0x3f81, 0x3b80, 0xbf81}}, {{0x3fbe, 0x3f40, 0x3307}},
                                         {{0x3fe0, 0x3fbc, 0x33a6}}, {{0x3fc0, 0x3f56, 0x330a}}, {{0x7f00, 0x7f00, 0x0000}}}};
constexpr int kNF = sizeof(kFloats) / sizeof(kFloats[0]), kND = sizeof(kDoubles) / sizeof(kDoubles[0]);
constexpr int kNI = sizeof(kInts) / sizeof(kInts[0]), kNT = sizeof(kTriples) / sizeof(kTriples[0]);

__global__ void convert(unsigned short* f_out, unsigned short* d_out, unsigned short* i_out, unsigned short* t_out,
                        int* cmp_out) {{
  int t = threadIdx.x;
  if (t < kNF) {{
    float f;
    std::memcpy(&f, &kFloats[t], 4);
    f_out[4 * t + 0] = __bfloat16_as_ushort(__float2bfloat16(f));
    f_out[4 * t + 1] = __bfloat16_as_ushort(__float2bfloat16_rz(f));
    f_out[4 * t + 2] = __bfloat16_as_ushort(__float2bfloat16_ru(f));
    f_out[4 * t + 3] = __bfloat16_as_ushort(__float2bfloat16_rd(f));
  }}
  if (t < kND) {{
    double d;
    std::memcpy(&d, &kDoubles[t], 8);
    d_out[t] = __bfloat16_as_ushort(__double2bfloat16(d));
  }}
  if (t < kNI) {{
    i_out[2 * t] = __bfloat16_as_ushort(__int2bfloat16_rn(kInts[t]));
    i_out[2 * t + 1] = __bfloat16_as_ushort(__int2bfloat16_rz(kInts[t]));
  }}
  if (t < kNT) {{
    bf16 a = __ushort_as_bfloat16(kTriples[t][0]), b = __ushort_as_bfloat16(kTriples[t][1]);
    bf16 c = __ushort_as_bfloat16(kTriples[t][2]);
    t_out[4 * t + 0] = __bfloat16_as_ushort(__hadd(a, b));
    t_out[4 * t + 1] = __bfloat16_as_ushort(__hmul(a, b));
    t_out[4 * t + 2] = __bfloat16_as_ushort(__hfma(a, b, c));
    t_out[4 * t + 3] = __bfloat16_as_ushort(a * b + c);  // two roundings, as the operators do
    cmp_out[t] = (a < b) + 2 * (a == c) + 4 * __hgt(b, c);
  }}
}}

int main() {{
  unsigned short *f_out, *d_out, *i_out, *t_out;
  int* cmp_out;
  cudaMalloc(&f_out, 4 * kNF * sizeof(unsigned short));
  cudaMalloc(&d_out, kND * sizeof(unsigned short));
  cudaMalloc(&i_out, 2 * kNI * sizeof(unsigned short));
  cudaMalloc(&t_out, 4 * kNT * sizeof(unsigned short));
  cudaMalloc(&cmp_out, kNT * sizeof(int));
  convert<<<1, 32>>>(f_out, d_out, i_out, t_out, cmp_out);
  if (cudaDeviceSynchronize() != cudaSuccess) return 1;
  for (int i = 0; i < kNF; ++i)
    std::printf("float %08x %04x %04x %04x %04x\n", kFloats[i], f_out[4 * i], f_out[4 * i + 1], f_out[4 * i + 2], f_out[4 * i + 3]);
  for (int i = 0; i < kND; ++i) std::printf("double %016llx %04x\n", kDoubles[i], d_out[i]);
  for (int i = 0; i < kNI; ++i) std::printf("int %d %04x %04x\n", kInts[i], i_out[2 * i], i_out[2 * i + 1]);
  for (int i = 0; i < kNT; ++i)
    std::printf("triple %04x %04x %04x %04x %04x %04x %04x %d\n", kTriples[i][0], kTriples[i][1], kTriples[i][2],
                t_out[4 * i], t_out[4 * i + 1], t_out[4 * i + 2], t_out[4 * i + 3], cmp_out[i]);
  bf16 x = 3;  // from int, as CUDA's constructor converts it
  std::printf("back %.12g %.12g\n", __bfloat162float(x), static_cast<float>(__float2bfloat16(0.1f)));
  {legacy}
  return 0;
}}
"""
# hip_bfloat16 (hip/hip_bfloat16.h), the older class: its own conversion, a tie to even, truncation
_LEGACY = r"""hip_bfloat16 tie(1.00390625f), up(1.01171875f), cut(1.0078125f, hip_bfloat16::truncate);
  std::printf("legacy %04x %04x %04x %.12g\n", tie.data, up.data, cut.data, float(tie + up));"""
_SIDES = {
    "cuda": ("cuda.cu", "#include <cuda_runtime.h>\n#include <cuda_bf16.h>", "__nv_bfloat16"),
    "hip": ("hip.hip", "#include <hip/hip_runtime.h>\n#include <hip/hip_bf16.h>\n#include <hip/hip_bfloat16.h>",
            "__hip_bfloat16"),
}
_MAX = 0x7F7F
_INF = 0x7F80


def bf16_value(bits: int) -> Fraction:
    return Fraction(struct.unpack(">f", struct.pack(">I", (bits & 0x7FFF) << 16))[0]) * (-1 if bits & 0x8000 else 1)


def exact_rounding(value: Fraction | float, mode: str = "rn") -> int:
    """bfloat16 bits of ``value`` rounded once in ``mode``, found by bisection over the bit patterns
    (finite magnitudes are ordered like their bits); NaN gives CUDA's canonical 0x7fff."""
    if value != value:
        return 0x7FFF
    negative = value < 0 or (value == 0 and struct.pack(">d", float(value))[0] & 0x80)
    sign = 0x8000 if negative else 0
    if value in (float("inf"), float("-inf")):
        return sign | _INF
    magnitude = abs(Fraction(value))
    lo, hi = 0, _MAX + 1  # lo: the largest pattern not above the magnitude
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if bf16_value(mid) <= magnitude else (lo, mid)
    upper = lo + 1
    upper_value = Fraction(2) ** 128 if upper == _INF else bf16_value(upper)
    if bf16_value(lo) == magnitude:
        return sign | lo
    away = {"rz": False, "ru": not negative, "rd": negative}.get(mode)
    if away is None:  # to nearest, ties to the even pattern
        below, above = magnitude - bf16_value(lo), upper_value - magnitude
        away = above < below or (above == below and upper % 2 == 0)
    return sign | (upper if away else lo)


def f32_bits(bits: int) -> float:
    return struct.unpack(">f", struct.pack(">I", bits))[0]


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[list[str]]]:
    need_gxx()
    out = tmp_path_factory.mktemp("bf16")

    def one(side: str) -> list[list[str]]:
        name, includes, bf16 = _SIDES[side]
        source = out / name
        text = _PROGRAM.format(includes=includes, bf16=bf16, legacy=_LEGACY if side == "hip" else "")
        source.write_text(text)
        built = build(source, text, out / side)
        assert built.ok, built.log
        result = proc.run([built.exe], timeout=RUN_TIMEOUT_S)
        assert result.ok, result.text()
        return [line.split() for line in result.stdout.decode().splitlines()]

    with ThreadPoolExecutor(2) as pool:
        return dict(zip(_SIDES, pool.map(one, _SIDES), strict=True))


@pytest.mark.parametrize("side", list(_SIDES))
def test_conversions_round_once_in_their_mode(outputs: dict[str, list[list[str]]], side: str) -> None:
    lines = outputs[side]
    floats = [line for line in lines if line[0] == "float"]
    assert len(floats) == 16
    for _, bits, *by_mode in floats:
        value = f32_bits(int(bits, 16))
        expected = [exact_rounding(value, mode) for mode in ("rn", "rz", "ru", "rd")]
        assert [int(g, 16) for g in by_mode] == expected, bits
    doubles = [line for line in lines if line[0] == "double"]
    for _, bits, got in doubles:
        value = struct.unpack(">d", bytes.fromhex(bits))[0]
        assert int(got, 16) == exact_rounding(Fraction(value)), bits
    # 1 + 2^-8 + 2^-36 rounds up: through float it would be the tie 1 + 2^-8, which rounds to 1
    assert ["double", "3ff0100000010000", "3f81"] in doubles
    for _, number, rn, rz in (line for line in lines if line[0] == "int"):
        assert (int(rn, 16), int(rz, 16)) == (exact_rounding(Fraction(int(number))),
                                              exact_rounding(Fraction(int(number)), "rz")), number
    # the ties, by hand: 1 + 2^-8 to even 1.0, 1 + 3*2^-8 up to 1 + 2^-6; 257 to 256, 259 to 260
    assert ["float", "3f808000", "3f80", "3f80", "3f81", "3f80"] in floats
    assert ["float", "3f818000", "3f82", "3f81", "3f82", "3f81"] in floats
    assert ["int", "257", "4380", "4380"] in lines and ["int", "259", "4382", "4381"] in lines
    assert ["back", "3", "0.10009765625"] in lines


@pytest.mark.parametrize("side", list(_SIDES))
def test_arithmetic_rounds_the_exact_result(outputs: dict[str, list[list[str]]], side: str) -> None:
    triples = [line for line in outputs[side] if line[0] == "triple"]
    assert len(triples) == 6
    for _, a_bits, b_bits, c_bits, add, mul, fma, two_step, compared in triples:
        a, b, c = (bf16_value(int(x, 16)) for x in (a_bits, b_bits, c_bits))
        assert int(add, 16) == exact_rounding(a + b), (a_bits, b_bits)
        assert int(mul, 16) == exact_rounding(a * b), (a_bits, b_bits)
        assert int(fma, 16) == exact_rounding(a * b + c), (a_bits, b_bits, c_bits)
        product = exact_rounding(a * b)
        assert int(two_step, 16) == exact_rounding(bf16_value(product) + c if product != _INF else Fraction(2) ** 200)
        assert int(compared) == (a < b) + 2 * (a == c) + 4 * (b > c)


def test_a_hip_program_and_its_cuda_original_agree_bit_for_bit(outputs: dict[str, list[list[str]]]) -> None:
    assert outputs["cuda"] == [line for line in outputs["hip"] if line[0] != "legacy"]


def test_exact_rounding_reference_on_known_patterns() -> None:
    # the reference itself, against values read off the format: 0x3f80 is 1.0, 0x7f80 infinity
    assert exact_rounding(1.0) == 0x3F80 and exact_rounding(f32_bits(0x7F7FFFFF)) == _INF
    assert exact_rounding(f32_bits(0x7F7FFFFF), "rz") == _MAX and exact_rounding(-0.0) == 0x8000
    assert exact_rounding(Fraction(1) + Fraction(1, 256)) == 0x3F80  # a tie, to even


def test_hip_bfloat16_header_class_keeps_its_own_conversion(outputs: dict[str, list[list[str]]]) -> None:
    [(_, tie, up, cut, total)] = [line for line in outputs["hip"] if line[0] == "legacy"]
    assert (int(tie, 16), int(up, 16), int(cut, 16)) == (0x3F80, exact_rounding(Fraction(259, 256)), 0x3F81)
    assert float(total) == float(bf16_value(exact_rounding(Fraction(1) + Fraction(259, 256))))
