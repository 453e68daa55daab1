"""Dynamic shared memory declared in a ``#define`` body (cuda-samples' cudasharedmem.h builds
``SharedMemory<T>`` specialisations with ``extern __shared__ t n[];`` in a macro)."""

from __future__ import annotations

from pathlib import Path

from cass_lsp.core import proc
from cass_lsp.cpu import build, prepare_source
from tests.cpu.conftest import need_gxx

_PROGRAM = """#include <cstdio>
template <typename T> struct SharedMemory;
#define BUILD_SHAREDMEMORY_TYPE(t, n)   \\
    template <> struct SharedMemory<t>  \\
    {                                   \\
        __device__ t &operator[](int i) \\
        {                               \\
            extern __shared__ t n[];    \\
            return n[i];                \\
        }                               \\
    }
BUILD_SHAREDMEMORY_TYPE(int, s_int);
BUILD_SHAREDMEMORY_TYPE(float, s_float);
__global__ void k(int *out) {
    SharedMemory<int> s;
    s[threadIdx.x] = threadIdx.x + 10 * blockIdx.x;
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = s[blockDim.x - 1 - threadIdx.x];
}
int main() {
    int *d;
    cudaMallocManaged(&d, 8 * sizeof(int));
    k<<<2, 4, 4 * sizeof(int)>>>(d);
    cudaDeviceSynchronize();
    for (int i = 0; i < 8; ++i) std::printf("%d ", d[i]);
    std::printf("\\n");
    return 0;
}
"""


def test_the_macro_bodys_declaration_becomes_the_blocks_buffer() -> None:
    lines = prepare_source(_PROGRAM).splitlines()
    assert lines[7].strip() == "static thread_local t *&n = ::cass::dynamic_shared_as<t>();    \\"
    assert prepare_source(_PROGRAM).count("\n") == _PROGRAM.count("\n")


def test_a_shared_memory_macro_builds_and_each_block_reads_its_own_buffer(tmp_path: Path) -> None:
    # MC_SingleAsianOptionP's original: "conflicting specifiers in declaration of 's_int'" (extern static thread_local)
    need_gxx()
    source = tmp_path / "shared.cu"
    result = build(source, _PROGRAM, tmp_path / "out")
    assert result.ok, result.log
    assert proc.run([result.exe], timeout=60).stdout.decode() == "3 2 1 0 13 12 11 10 \n"
