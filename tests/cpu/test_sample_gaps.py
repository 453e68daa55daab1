"""The rule translation of what cuda-samples use and HIP lacks computes what CUDA computes.

The CPU runtime's CUDA side rounds with the host's rounding modes (``fesetround``), its atomics and
cooperative groups are its own: the translation's compatibility helpers (directed rounding,
atomicInc_system/atomicDec_system, cg::reduce, meta_group_rank/size before ROCm 6.2, a uint2 tile
shuffle) must print
the same bits.
"""

from __future__ import annotations

import difflib
from pathlib import Path

from cass_lsp.translate import TargetProfile, translate
from tests.cpu.conftest import build_and_run, need_gxx

PROGRAM = Path(__file__).parent / "gaps" / "sample_gaps.cu"


def test_the_helpers_compute_what_cuda_computes(tmp_path: Path) -> None:
    need_gxx()
    text = PROGRAM.read_text(encoding="utf-8")
    result = translate(text, TargetProfile("gfx1100", "5.2"))
    assert [f.message for f in result.findings if f.severity != "info"] == []
    for helper in ("cass_fadd_rd(", "cass_atomicInc_system(", "cooperative_groups::this_thread_block().thread_rank()",
                   "__device__ inline T reduce(", "cass_shfl_xor(tile, p.y, 5)"):
        assert helper in result.text
    original = build_and_run(PROGRAM, text, tmp_path / "cuda")
    port = tmp_path / "sample_gaps.hip"
    port.write_text(result.text, encoding="utf-8")
    translated = build_and_run(port, result.text, tmp_path / "hip")
    assert "inc 1 block 111 dec 1\n" in original and "shuffled 37 32\n" in original  # lane 37 reads 32's  # 111 increments wrap past 9 (111 % 10), decrements past 0 to 6
    diff = "".join(difflib.unified_diff(original.splitlines(True), translated.splitlines(True), n=0))
    assert translated == original, diff[:4000]


WIDE_SHUFFLES = r"""
#include <cooperative_groups.h>
#include <cstdio>
namespace cg = cooperative_groups;
struct Triple { double a, b; int c; };  // 24 bytes: three words, the last one padded
__global__ void wide(uint4* out4, Triple* out3) {
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
    unsigned r = tile.thread_rank();
    uint4 v = make_uint4(r, r * 10, r * 100, r * 1000);
    out4[r] = tile.shfl_up(v, 1);  // shfl_scan's uint4, whose original did not build for the CPU runner
    Triple t = {r + 0.5, -1.0 * r, static_cast<int>(r) * 7};
    out3[r] = tile.shfl_xor(t, 3);
}
int main() {
    uint4* d4; Triple* d3;
    cudaMalloc(&d4, 32 * sizeof(uint4));
    cudaMalloc(&d3, 32 * sizeof(Triple));
    wide<<<1, 32>>>(d4, d3);
    uint4 h4[32]; Triple h3[32];
    cudaMemcpy(h4, d4, sizeof h4, cudaMemcpyDeviceToHost);
    cudaMemcpy(h3, d3, sizeof h3, cudaMemcpyDeviceToHost);
    for (int i = 0; i < 32; ++i)
        printf("%u %u %u %u | %.1f %.1f %d\n", h4[i].x, h4[i].y, h4[i].z, h4[i].w, h3[i].a, h3[i].b, h3[i].c);
    return 0;
}
"""


def test_a_tile_shuffles_a_value_wider_than_a_register(tmp_path: Path) -> None:
    need_gxx()
    source = tmp_path / "wide.cu"
    printed = build_and_run(source, WIDE_SHUFFLES, tmp_path / "wide")

    def line(r: int) -> str:
        up = r - 1 if r > 0 else r  # shfl_up keeps lane 0's own value
        x = r ^ 3
        return f"{up} {up * 10} {up * 100} {up * 1000} | {x + 0.5:.1f} {-1.0 * x:.1f} {x * 7}"

    assert printed.splitlines() == [line(r) for r in range(32)]
