"""HIP's vector types in the reverse direction: one-scalar and component construction, operators.

HIP's ``float4`` constructs from one scalar and has arithmetic and comparison operators; CUDA's
struct has neither. The translation calls ``make_float4`` and defines the operators the file uses,
once, as marked compatibility helpers; nvcc compiles the result (tests/toolchain/test_translate_vectors.py).
"""

from __future__ import annotations

from cass_lsp.translate import translate

KERNEL = """#include <hip/hip_runtime.h>
__global__ void blend(float4* out, const float4* in, int2* cells, float s, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float4 base = float4(s);
    float4 v = in[i];
    float4 w = float4(1.0f, 2.0f, 3.0f, 4.0f);
    v += base;
    float4 r = -v + w * s + 2.0f * (v - base) / w;
    if (r == v || r != w) r = float4(in[i].x * 2.0f);
    int2 c = int2(i);
    out[i] = r;
    cells[i] = c;
}
"""


def test_one_scalar_and_component_construction_become_make_calls() -> None:
    text = translate(KERNEL, reverse=True).text
    assert "float4 base = make_float4(s, s, s, s);" in text
    assert "make_float4(1.0f, 2.0f, 3.0f, 4.0f)" in text and "int2 c = make_int2(i, i);" in text
    assert "make_float4(in[i].x * 2.0f, in[i].x * 2.0f, in[i].x * 2.0f, in[i].x * 2.0f)" in text


def test_operators_the_file_uses_are_defined_once_each() -> None:
    text = translate(KERNEL, reverse=True).text
    for guard in ("PLUS", "MINUS", "TIMES", "DIVIDE", "NEG", "EQ", "NE", "PLUS_ASSIGN"):
        assert text.count(f"#ifndef CASS_VECTOR_FLOAT4_{guard}\n") == 1, guard
    assert "CASS_VECTOR_INT2" not in text  # int2 is only constructed, never operated on
    assert text.count("// cass: compatibility helper (HIP's float4 has operator") == 8


def test_a_scalar_with_a_side_effect_is_not_repeated() -> None:
    result = translate("__device__ float4 f(float* p) { return float4(*p++); }\n", reverse=True)
    assert "float4(*p++)" in result.text
    assert [f.code for f in result.findings if f.name == "float4"] == ["untranslated"]
