"""A program's own host function named as one of CUDA's device-only functions is no clash: under
nvcc CUDA's is a device function, so a host helper of the same signature is the program's."""

from __future__ import annotations

from pathlib import Path

from cass_lsp.core import proc
from cass_lsp.cpu import build
from tests.cpu.conftest import need_gxx

_HELPERS = """#include <cstdio>
typedef unsigned int uint;
static uint umin(uint a, uint b) { return (a <= b) ? a : b; }  // cuda-samples' mergeSort_host.cpp
static long long llmax(long long a, long long b) { return a > b ? a : b; }
__global__ void k(unsigned *out) { out[0] = umax(3u, 7u); out[1] = (unsigned)ullmin(5ull, 2ull); }
int main() {
    unsigned *d;
    cudaMallocManaged(&d, 2 * sizeof(unsigned));
    k<<<1, 1>>>(d);
    cudaDeviceSynchronize();
    std::printf("%u %lld %u %u\\n", umin(4u, 9u), llmax(-1, 6), d[0], d[1]);
    return 0;
}
"""


def test_a_host_umin_of_the_program_is_its_own(tmp_path: Path) -> None:
    # mergeSort's original did not build for the CPU runner: "redefinition of 'uint umin(uint, uint)'"
    need_gxx()
    source = tmp_path / "helpers.cu"
    result = build(source, _HELPERS, tmp_path / "out")
    assert result.ok, result.log
    assert proc.run([result.exe], timeout=60).stdout.decode() == "4 6 7 2\n"
