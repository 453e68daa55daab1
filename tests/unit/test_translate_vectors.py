"""HIP's vector types in the reverse direction: one-scalar and component construction, operators.

HIP's ``float4`` constructs from one scalar and has arithmetic and comparison operators; CUDA's
struct has neither. The translation calls ``make_float4`` (a scalar that is not a name or a member
of one goes through ``cass_splat_float4``, which evaluates it once) and defines the operators the
file uses, once, as marked compatibility helpers; nvcc compiles the result (tests/toolchain/test_translate_vectors.py).
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
    double2 h = double2(sqrt((double)s) + in[i].w);
    r.x += (float)h.y;
    out[i] = r;
    cells[i] = c;
}
"""


def test_one_scalar_and_component_construction_become_make_calls() -> None:
    text = translate(KERNEL, reverse=True).text
    assert "float4 base = make_float4(s, s, s, s);" in text
    assert "make_float4(1.0f, 2.0f, 3.0f, 4.0f)" in text and "int2 c = make_int2(i, i);" in text
    assert "r = cass_splat_float4(in[i].x * 2.0f);" in text
    assert "double2 h = cass_splat_double2(sqrt((double)s) + in[i].w);" in text
    assert text.count("#ifndef CASS_SPLAT_FLOAT4\n") == 1 and text.count("#ifndef CASS_SPLAT_DOUBLE2\n") == 1


def test_operators_the_file_uses_are_defined_once_each() -> None:
    text = translate(KERNEL, reverse=True).text
    for guard in ("PLUS", "MINUS", "TIMES", "DIVIDE", "NEG", "EQ", "NE", "PLUS_ASSIGN"):
        assert text.count(f"#ifndef CASS_VECTOR_FLOAT4_{guard}\n") == 1, guard
    assert "CASS_VECTOR_INT2" not in text  # int2 is only constructed, never operated on
    assert text.count("// cass: compatibility helper (HIP's float4 has operator") == 8
    assert "CASS_VECTOR_DOUBLE2" not in text


def test_a_scalar_with_a_side_effect_is_evaluated_once_by_the_splat_helper() -> None:
    result = translate("__device__ float4 f(float* p) { return float4(*p++); }\n"
                       "__device__ uint2 g(unsigned (*next)()) { return uint2(next()); }\n", reverse=True)
    assert "return cass_splat_float4(*p++);" in result.text and "return cass_splat_uint2(next());" in result.text
    assert ("__host__ __device__ inline uint2 cass_splat_uint2(unsigned int v) { return make_uint2(v, v); }"
            in result.text)
    assert not [f for f in result.findings if f.name in ("float4", "uint2")]
