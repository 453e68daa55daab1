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

from cass_lsp.core import proc
from cass_lsp.cpu import build
from cass_lsp.translate import TargetProfile, translate
from tests.cpu.conftest import RUN_TIMEOUT_S, need_gxx

PROGRAM = Path(__file__).parent / "gaps" / "sample_gaps.cu"


def _run(source: Path, text: str, exe: Path) -> str:
    built = build(source, text, exe)
    assert built.ok, built.log
    result = proc.run([str(built.exe)], timeout=RUN_TIMEOUT_S)
    assert result.ok, result.text()
    return result.stdout.decode()


def test_the_helpers_compute_what_cuda_computes(tmp_path: Path) -> None:
    need_gxx()
    text = PROGRAM.read_text(encoding="utf-8")
    result = translate(text, TargetProfile("gfx1100", "5.2"))
    assert [f.message for f in result.findings if f.severity != "info"] == []
    for helper in ("cass_fadd_rd(", "cass_atomicInc_system(", "cooperative_groups::this_thread_block().thread_rank()",
                   "__device__ inline T reduce(", "cass_shfl_xor(tile, p.y, 5)"):
        assert helper in result.text
    original = _run(PROGRAM, text, tmp_path / "cuda")
    port = tmp_path / "sample_gaps.hip"
    port.write_text(result.text, encoding="utf-8")
    translated = _run(port, result.text, tmp_path / "hip")
    assert "inc 1 block 111 dec 1\n" in original and "shuffled 37 32\n" in original  # lane 37 reads 32's  # 111 increments wrap past 9 (111 % 10), decrements past 0 to 6
    diff = "".join(difflib.unified_diff(original.splitlines(True), translated.splitlines(True), n=0))
    assert translated == original, diff[:4000]
