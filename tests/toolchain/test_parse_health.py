"""One program holding every construct class of tests/unit/test_parse_health.py translates to HIP that
clang-19 compiles (the pre-pass's reading of each construct is tested there)."""

from __future__ import annotations

from pathlib import Path

from cass_lsp.syntax import parsing as syntax
from cass_lsp.translate import translate
from tests.toolchain.test_translate_compile import compile_hip, errors
from tests.unit.test_parse_health import ATTRIBUTE_MACRO, P52, SPLIT_BRANCHES, STATEMENT_MACRO, problems

PROGRAM = r"""#include <cstdio>
#include <memory>
#include <vector>
#include <cstdint>
#include <cuda_runtime.h>

#define REGISTER_X(params, a, b, body) auto params = [&]() body ;
""" + ATTRIBUTE_MACRO + STATEMENT_MACRO + SPLIT_BRANCHES + r"""
template <typename T> struct Holder { using Arguments = int; using Layout = int; T value; };
template struct Holder<float>;

template <typename K>
typename K::Arguments make_args(int n) {
    auto layout = typename K::Layout{};
    return typename K::Arguments(n + layout);
}

template <int N, class... T> __device__ int sum(T... v) {
    if constexpr (N > 2) { return (v + ... + 0); } else { return (... + v); }
}

__global__ void mix(unsigned* out, const float* in) {
    __shared__ unsigned char __align__(8) raw[64];
    raw[threadIdx.x % 64] = 1;
    double d;
    widen(in, &d);
    out[threadIdx.x] = UINT32_C(0x6A09E667) + sum<3>(1, 2, 3) + raw[0] + static_cast<unsigned>(d);
}

void CUDART_CB done(cudaStream_t stream, cudaError_t status, void* data) { (void)stream; (void)status; (void)data; }

int main() {
    std::shared_ptr<std::vector<std::vector<int>>> nested = nullptr;
    int x = 0;
    REGISTER_X(params, 1, 2, { if constexpr (sizeof(int) == 4) { x = 1; } return x; })
    Acc acc;
    acc(1.0f);
    std::printf("%d %d %d %f\n", params(), lanes(), make_args<Holder<float>>(1), acc.sum);
    return nested == nullptr ? 0 : 1;
}
"""


def test_a_program_with_every_construct_translates_and_compiles(tmp_path: Path) -> None:
    program = PROGRAM
    assert problems(program.encode(), syntax.parse_source(program.encode())) == []
    result = translate(program, P52)
    assert errors(result) == []
    # the set-aside #else branch is said (info); nothing is unparsable
    assert [f.severity for f in result.findings if f.code == "parse-error"] == ["info"]
    assert "cuda" not in result.text.replace("cudaMemcpyHostToDevice", "x"), result.text
    assert "hipStream_t stream, hipError_t status" in result.text and "CUDART_CB" not in result.text
    compiled = compile_hip(tmp_path, "constructs", result.text, P52)
    assert compiled.ok, compiled.text()
