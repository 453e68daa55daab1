"""CUB and hipCUB on the CPU runner (cass_cpu/cub/): a program shaped like real ones (tests/cpu/cub_stats:
a Makefile, a unit sorting, scanning and reducing with CUB's device-wide algorithms, a unit whose
kernel sums with BlockReduce and WarpReduce, a header with the status-check macro) runs against its
rule translation by ``cass-lsp translate`` (hipcub::, <hipcub/hipcub.hpp>), both on the CPU runtime's
one CUB. The program checks every result against the same computation on its host, so agreeing
sides that PASS are right, not only equal.
"""

from __future__ import annotations

import shutil
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from cass_lsp import cpu
from cass_lsp.core import pairs, proc
from cass_lsp.cpu import outcome
from cass_lsp.services.settings import resolve_cli
from cass_lsp.verify import engine
from cass_lsp.verify import run as run_stage
from cass_lsp.verify.stages import StageResult
from tests.cpu.conftest import Corpus

PROJECT = Path(__file__).parent / "cub_stats"
# a partial last block (1000000 = 3906 * 256 + 64): BlockReduce's valid items count
ARGS = ["1000000", "20"]
# the port got the logical warp width wrong: each WarpReduce sums 16 lanes, not 32
MUTANT = ("hipcub::WarpReduce<int, kWarpThreads>", "hipcub::WarpReduce<int, 16>")


def run_pair(original: Path, translations: str) -> StageResult:
    resolved = resolve_cli(
        target={"arch": "gfx1100", "rocm": "5.2"},
        verification={"run": True, "runner": "cpu", "limits": {"timeoutSeconds": 60}, "args": ARGS,
                      "translationPatterns": [translations + "/{stem}.hip"]},
    )  # fmt: skip
    inputs = engine.read_inputs(pairs.Pair(str(original), None), {}, resolved)
    [plan] = run_stage.plan_runs(inputs, resolved, "cpu")
    return run_stage.run_programs(plan)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, StageResult | str]:
    """The rule translation (``cass-lsp translate``), then the original against it and against a
    mutant of it; the originals in ``cuda/``, the ports beside them in ``hip/`` and ``mutant/``."""
    root = tmp_path_factory.mktemp("cub")
    translated = proc.run([sys.executable, "-m", "cass_lsp", "translate", str(PROJECT), "--out-dir", str(root / "port")],
                          timeout=300)  # fmt: skip
    assert translated.ok, translated.text()
    shutil.copytree(PROJECT / "src", root / "cuda")
    shutil.copytree(root / "port" / "src", root / "hip")
    shutil.copytree(root / "port" / "src", root / "mutant")
    kernel = root / "mutant" / "block_sums.hip"
    text = kernel.read_text()
    assert MUTANT[0] in text
    kernel.write_text(text.replace(*MUTANT))
    main = root / "cuda" / "sort_stats.cu"
    with ThreadPoolExecutor(2) as pool:
        good, bad = pool.map(lambda port: run_pair(main, port), ["../hip", "../mutant"])
    return {"translation": (root / "hip" / "sort_stats.hip").read_text() + (root / "hip" / "block_sums.hip").read_text(),
            "good": good, "mutant": bad}  # fmt: skip


def test_the_rule_translation_uses_hipcub_and_its_header(runs: dict[str, StageResult | str]) -> None:
    translation = runs["translation"]
    assert isinstance(translation, str)
    assert "#include <hipcub/hipcub.hpp>" in translation and "<cub/" not in translation
    assert (
        "hipcub::DeviceRadixSort::SortPairs(" in translation
        and "hipcub::BlockReduce<int, kBlockThreads>" in translation
    )


def test_sort_scan_reduce_and_block_warp_sums_pass_against_the_translation(runs: dict[str, StageResult | str]) -> None:
    good = runs["good"]
    assert isinstance(good, StageResult)
    assert good.outcome == "passed", good.message
    # both sides printed PASS (exit 0): every result equals the host's
    assert (
        "original and translation agree (exit 0, 6 line(s) of output; 9 device-to-host copies compared" in good.message
    )


def test_a_port_with_the_wrong_logical_warp_width_fails(runs: dict[str, StageResult | str]) -> None:
    bad = runs["mutant"]
    assert isinstance(bad, StageResult)
    assert bad.outcome == "failed", bad.message
    assert "exit code differs: original 0, translation 1" in bad.message


@pytest.mark.parametrize("namespace", ["cub", "hipcub"])
def test_a_cub_call_the_runtime_does_not_execute_is_refused_by_name(namespace: str, tmp_path: Path) -> None:
    call = f"{namespace}::DeviceAdjacentDifference::SubtractLeftCopy(d_temp, temp_bytes, d_weights, d_perm, n)"
    text = (PROJECT / "src" / "sort_stats.cu").read_text()
    text = text.replace("    gather_weights(d_weights, d_perm, d_sorted_weights, n);\n", f"    CHECK({call});\n")
    library = {"cub": "CUB", "hipcub": "hipCUB"}[namespace]
    why = f"{namespace}::DeviceAdjacentDifference is not executed by the CPU runtime's {library}"
    assert [(u.construct, u.detail) for u in cpu.unsupported(text)] == [(f"library: {library}", why)]
    if namespace == "cub":  # and the run says so: could not verify, never a pass
        shutil.copytree(PROJECT / "src", tmp_path / "cuda")
        (tmp_path / "cuda" / "sort_stats.cu").write_text(text)
        result = run_pair(tmp_path / "cuda" / "sort_stats.cu", ".")
        assert result.outcome == "unavailable", result.message
        assert f"cannot run on CPU: library: CUB (line 90: {why})" in result.message, result.message


def test_a_cub_header_the_runtime_lacks_is_refused_and_its_own_are_not() -> None:
    found = cpu.unsupported(
        "#include <cub/cub.cuh>\n#include <hipcub/hipcub.hpp>\n#include <cub/block/block_discontinuity.cuh>\n"
    )
    assert [(u.line, u.detail) for u in found] == [
        (2, "#include <cub/block/block_discontinuity.cuh>: not in the CPU runtime's CUB")
    ]


def test_the_rest_of_the_api_computes_what_the_host_computes(corpus: Corpus) -> None:
    """Block scans with a running prefix and a seed, block radix sort, striped loads and stores, warp
    scans on 16-lane logical warps, selection, partition, run-length encoding, histograms, segmented
    reductions and sorts, a DoubleBuffer, and the refusal of too small a temporary storage."""
    out = corpus.stdout("cub_coverage.cu")
    assert out.endswith("0 bad\n") and out.count("\nok ") == 13, out


def test_a_block_collective_in_a_block_of_another_shape_cannot_run(corpus: Corpus) -> None:
    result = corpus.run("cub_coverage.cu", args=["wrong-block"])
    assert result.returncode == outcome.EXIT_UNSUPPORTED, result.text()
    assert (
        "cannot run on CPU: cub::BlockReduce<256 x 1 x 1 threads> called in a block of 128 x 1 x 1 threads"
        in result.text()
    )
