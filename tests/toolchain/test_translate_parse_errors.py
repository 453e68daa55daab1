"""Statement macros used without a semicolon still translate, and the translation compiles with clang-19;
the misreadings themselves are tested in tests/unit/test_translate_parse_errors.py."""

from __future__ import annotations

from pathlib import Path

from cass_lsp.translate import translate
from tests.toolchain.test_translate_compile import compile_hip, errors
from tests.unit.test_translate_parse_errors import P52, parse_messages

STATEMENT_MACROS = r"""
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define TIMER_START auto timer_start_ = std::chrono::steady_clock::now();
#define TIMER_STOP(label) std::printf("%s: %lld us\n", label, static_cast<long long>( \
    std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - timer_start_).count()));
#define CHECK_CUDA(call) { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    std::fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); std::exit(1); } }

__global__ void saxpy(float a, const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

int main() {
    const int n = 1 << 16;
    const size_t bytes = n * sizeof(float);
    float* h = static_cast<float*>(std::malloc(bytes));
    for (int i = 0; i < n; ++i) h[i] = 1.0f;
    float *x = nullptr, *y = nullptr;
    CHECK_CUDA(cudaMalloc(&x, bytes));
    CHECK_CUDA(cudaMalloc(&y, bytes));
    TIMER_START
    cudaMemcpy(x, h, bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(y, h, bytes, cudaMemcpyHostToDevice);
    saxpy<<<(n + 255) / 256, 256>>>(2.0f, x, y, n);
    if (n > 0) CHECK_CUDA(cudaDeviceSynchronize()) else CHECK_CUDA(cudaGetLastError())
    cudaMemset(x, 0, bytes);
    TIMER_STOP("saxpy")
    cudaError_t status = cudaMemcpy(h, y, bytes, cudaMemcpyDeviceToHost);
    std::printf("%s y[0]=%f\n", cudaGetErrorName(status), h[0]);
    cudaFree(x);
    cudaFree(y);
    std::free(h);
    return 0;
}
"""


def test_statement_macros_without_semicolons_still_translate(tmp_path: Path) -> None:
    result = translate(STATEMENT_MACROS, P52)
    body = result.text.split("\n__global__", 1)[1]
    assert "cuda" not in body.replace("CHECK_CUDA", ""), body
    assert "hipMemcpy(x, h, bytes, hipMemcpyHostToDevice);" in body
    assert "hipError_t status = hipMemcpy(h, y, bytes, hipMemcpyDeviceToHost);" in body
    # The file defines TIMER_START as a statement: the pre-pass reads it as one (cass_lsp.syntax.prepass).
    assert not [m for m in parse_messages(result) if "TIMER_START" in m]
    assert all("translated by name, without a full parse" in m for m in parse_messages(result) if "missing" not in m)
    assert errors(result) == []
    compiled = compile_hip(tmp_path, "statement_macros", result.text, P52)
    assert compiled.ok, compiled.text()
