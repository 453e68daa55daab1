"""CUDA originals against hand-written HIP translations, right and wrong, and wave-64 exposure."""

from __future__ import annotations

from tests.cpu.conftest import Corpus


def test_hip_translations_agree_with_cuda(corpus: Corpus) -> None:
    assert corpus.stdout("vector_add.hip") == corpus.stdout("vector_add.cu")
    assert corpus.stdout("warp_reduce.hip") == corpus.stdout("warp_reduce.cu")
    assert corpus.stdout("matmul_tiled.hip", args=["64"]).split("kernel_ms")[0] == (
        corpus.stdout("matmul_tiled.cu", args=["64"]).split("kernel_ms")[0]
    )


def test_hip_translation_agrees_on_wave64(corpus: Corpus) -> None:
    assert corpus.stdout("warp_reduce.hip", 64) == corpus.stdout("warp_reduce.cu", 64)


def test_off_by_one_translation_differs(corpus: Corpus) -> None:
    original = corpus.stdout("matmul_tiled.cu", args=["64"]).split("kernel_ms")[0]
    wrong = corpus.stdout("matmul_off_by_one.hip", args=["64"]).split("kernel_ms")[0]
    assert wrong != original
    assert "max_err=0\n" in original and "max_err=0\n" not in wrong


def test_wrong_shuffle_width_differs(corpus: Corpus) -> None:
    assert corpus.stdout("warp_reduce_wrong_width.hip") != corpus.stdout("warp_reduce.cu")


def test_wave64_exposes_32_lane_assumption(corpus: Corpus) -> None:
    expected = sum(1 for i in range(4 * 256) if i % 64 < 40)
    assert corpus.stdout("warp_aggregate_32.cu", 32) == f"count={expected}\n"
    result = corpus.run("warp_aggregate_32.cu", 64)
    assert result.ok
    assert result.stdout.decode() != f"count={expected}\n"
    assert b"leaves it out" in result.stderr  # the 0xffffffff mask names only half of a 64-wide warp
