"""A transformer-training kernel file shaped like llm.c's headers: bfloat16 activations
(``cuda_bf16.h``), 128-bit packed loads and stores with streaming cache hints (``__ldcs`` /
``__stcs`` on ``int4``), and the bf16 conversions. Written for these tests."""

from __future__ import annotations

from cass_lsp.translate import TargetProfile, translate

P52 = TargetProfile(rocm="5.2")
P71 = TargetProfile(rocm="7.1")

SOURCE = """#include <cuda_bf16.h>
#include <cuda_runtime.h>

typedef __nv_bfloat16 floatX;

template <class Element>
struct alignas(16) Pack128 {
  static constexpr int size = sizeof(int4) / sizeof(Element);
  Element payload[size];
  __device__ Pack128() = default;
  __device__ explicit Pack128(int4 bits) { memcpy(&payload, &bits, sizeof(bits)); }
  __device__ int4 bits() const { int4 b; memcpy(&b, &payload, sizeof(b)); return b; }
};

__device__ Pack128<floatX> load_streaming(const floatX* at) {
  return Pack128<floatX>{__ldcs(reinterpret_cast<const int4*>(at))};
}
__device__ Pack128<floatX> load_global(const floatX* at) {
  return Pack128<floatX>{__ldcg(reinterpret_cast<const int4*>(at))};
}
__device__ void store_streaming(floatX* at, Pack128<floatX> value) {
  __stcs(reinterpret_cast<int4*>(at), value.bits());
}

__global__ void residual_scale(floatX* out, const floatX* inp, const float* gain, int n) {
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * Pack128<floatX>::size;
  if (i >= n) return;
  Pack128<floatX> x = load_streaming(inp + i);
  Pack128<floatX> y;
  for (int k = 0; k < Pack128<floatX>::size; ++k) {
    float scaled = __bfloat162float(x.payload[k]) * __ldcs(gain + i + k);
    y.payload[k] = __float2bfloat16_rn(scaled);
  }
  store_streaming(out + i, y);
  __stcg(out + i, y.payload[0]);
}
"""


def test_bf16_names_become_hip_bf16s_on_a_target_that_has_it() -> None:
    out = translate(SOURCE, P71)
    assert "#include <hip/hip_bf16.h>" in out.text
    assert "typedef __hip_bfloat16 floatX;" in out.text
    assert "__bfloat162float(x.payload[k])" in out.text  # hip_bf16.h spells it as CUDA does
    assert "__float2bfloat16(scaled)" in out.text  # HIP's rounds to nearest even, as _rn does
    assert "__nv_bfloat16" not in out.text and "_rn(" not in out.text
    assert not [f for f in out.findings if f.severity == "error"], [f.message for f in out.findings]


def test_cache_hinted_loads_and_stores_call_a_helper_for_any_type() -> None:
    out = translate(SOURCE, P71)
    for hinted in ("cass_ldcs(reinterpret_cast<const int4*>(at))", "cass_ldcg(reinterpret_cast<const int4*>(at))",
                   "cass_stcs(reinterpret_cast<int4*>(at), value.bits())", "cass_ldcs(gain + i + k)",
                   "cass_stcg(out + i, y.payload[0])"):
        assert hinted in out.text
    assert out.text.count("#ifndef CASS_CACHE_HINTS") == 1  # the helper, defined once
    assert "template <typename T> __device__ inline T cass_ldcs(const T* p) { return *p; }" in out.text
    assert "template <typename T> __device__ inline void cass_stcs(T* p, T v) { *p = v; }" in out.text
    hints = [f for f in out.findings if f.message.startswith(("__ldc", "__stc"))]
    assert len(hints) == 5 and {f.severity for f in hints} == {"info"}


def test_before_rocm_6_the_tables_bf16_mapping_stands() -> None:
    out = translate(SOURCE, P52)
    assert "#include <hip/hip_bfloat16.h>" in out.text and "typedef hip_bfloat16 floatX;" in out.text
    assert any("__float2bfloat16_rn" in f.message and f.severity == "error" for f in out.findings)
    assert "cass_stcs(" in out.text  # the helper needs no newer ROCm
