"""Stream-ordered allocation (cudaMallocAsync, memory pools) on the CPU runtime: the original and its
rule translation (hipMallocAsync, hipMemPool_t, ...) build, run and print the same pool accounting.

cuda-samples' streamOrderedAllocation did not build for the CPU runner (``cudaMemPool_t`` was not
declared); tests/cpu/mempool/stream_ordered.cu uses what it uses and what real programs read back.
"""

from __future__ import annotations

from pathlib import Path

from cass_lsp.core import proc
from cass_lsp.cpu import build, outcome, refuse
from cass_lsp.translate import TargetProfile, translate
from tests.cpu.conftest import RUN_TIMEOUT_S, build_and_run, need_gxx

PROGRAM = Path(__file__).parent / "mempool" / "stream_ordered.cu"


def test_pools_account_as_a_gpu_does_on_both_sides(tmp_path: Path) -> None:
    need_gxx()
    text = PROGRAM.read_text(encoding="utf-8")
    assert refuse.unsupported(text) == []
    result = translate(text, TargetProfile("gfx1100", "5.2"))
    assert [f.message for f in result.findings if f.severity != "info"] == []
    assert "hipMallocFromPoolAsync(" in result.text and "hipMemPoolAttrReleaseThreshold" in result.text
    port = tmp_path / "stream_ordered.hip"
    port.write_text(result.text, encoding="utf-8")
    assert refuse.unsupported(result.text) == []
    original = build_and_run(PROGRAM, text, tmp_path / "cuda")
    lines = original.splitlines()
    # three 4000-byte blocks (4096 each) held; freed, they stay reserved until the synchronize
    assert "three: reserved 12288 high 12288 used 12288 high 12288" in lines
    assert "freed: reserved 12288 high 12288 used 0 high 12288" in lines
    assert "synced: reserved 0 high 12288 used 0 high 12288" in lines
    assert "out[999] 999.0" in lines
    # a release threshold keeps the steady state's one block; cudaMemPoolTrimTo gives it back
    assert "kept: reserved 4096 high 12288 used 0 high 12288" in lines
    assert "trimmed: reserved 0 high 12288 used 0 high 0" in lines
    assert "reset high 0 nonzero 1" in lines  # a high-water mark can only be reset
    assert "mine: reserved 768 high 768 used 768 high 768" in lines and "reuse 1" in lines
    assert "mine synced: reserved 0 high 768 used 0 high 768" in lines
    assert "access 0 0 flags 3" in lines
    assert "set current 0 current: reserved 4096 high 4096 used 4096 high 4096" in lines
    assert "destroy 0 destroy default 1" in lines and lines[-1] == "back to default 1"
    assert "bad device 101" in original  # cudaErrorInvalidDevice
    translated = build_and_run(port, result.text, tmp_path / "hip")
    assert translated == original


CAPTURED = r"""
#include <cstdio>
__global__ void fill(int* p) { p[threadIdx.x] = threadIdx.x; }
int main() {
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaGraph_t g;
  int* d;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaMallocAsync(&d, 32 * sizeof(int), s);
  fill<<<1, 32, 0, s>>>(d);
  cudaFreeAsync(d, s);
  cudaStreamEndCapture(s, &g);
  printf("captured\n");
  return 0;
}
"""


def test_an_allocation_under_stream_capture_stops_the_run_with_its_reason(tmp_path: Path) -> None:
    # A graph's memory node allocates when the graph runs; allocating at capture would let the
    # captured free release the memory before the captured kernel writes it.
    need_gxx()
    source = tmp_path / "captured.cu"
    built = build(source, CAPTURED, tmp_path / "captured")
    assert built.ok, built.log
    result = proc.run([str(built.exe)], timeout=RUN_TIMEOUT_S)
    assert result.returncode == outcome.EXIT_UNSUPPORTED, result.text()
    assert "cannot run on CPU: cudaMallocAsync on a capturing stream" in result.stderr.decode()
    assert "captured" not in result.stdout.decode()
