"""Thrust on the CPU runner, through the real CLI (``cass-lsp verify ... --runner cpu``: nvcc and
clang-19 compile the pair, g++ builds both for the CPU runtime against CCCL's Thrust):
tests/cpu/thrust_stats is a program of two units and a header (a CUDA_CHECK macro, kernels launched
on raw_pointer_cast pointers of device_vectors, __host__ __device__ functors) that sorts, reduces,
scans and transforms samples with Thrust on a stream (``thrust::cuda::par.on``), a sample count
from argv.

The program checks what Thrust computed against the same statistics computed on the host without
Thrust (std::stable_sort, std::accumulate, the samples' hash) and exits 1 where they differ, so a
pass says Thrust's results were right, not only equal on both sides. Its rule translation
(rocThrust's ``thrust::hip::par``) verifies; a translation that sorts the other way fails.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from cass_lsp.core import proc

PROGRAM = Path(__file__).parent / "thrust_stats"
SAMPLES = 1 << 18
_TIMEOUT_S = 1200.0
pytestmark = pytest.mark.usefixtures("own_result_cache")  # a wrong port's verify reuses its original's nvcc compile


def _cli(*args: str | Path) -> proc.ProcResult:
    return proc.run([sys.executable, "-m", "cass_lsp", *map(str, args)], timeout=_TIMEOUT_S)


def _verify(folder: Path, *more: str) -> tuple[int, dict[str, Any], str]:
    # rocThrust is in the ROCm 5.2 profile's library headers (7.1's leaves it out: hiplibs.NOT_IN_PROFILE);
    # the result cache is on (the module's own), so the wrong port's run reuses the original's compile
    result = _cli("verify", folder, "--runner", "cpu", "--rocm", "5.2", "--arg", str(SAMPLES), "--json",
                  "--compile-timeout", "900", *more)  # fmt: skip
    reports = json.loads(result.stdout) if result.stdout.strip() else []
    assert len(reports) == 1, result.text()
    return result.returncode, reports[0], result.stderr.decode()


def _stage(report: dict[str, Any], name: str) -> dict[str, Any]:
    return next(s for s in report["stages"] if s["name"] == name)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[int, dict[str, Any], str]]:
    """The rule translation's verdict and a wrong port's."""
    root = tmp_path_factory.mktemp("thrust")
    original = root / "cuda"
    shutil.copytree(PROGRAM, original)
    ported = root / "hip"
    translated = _cli("translate", original, "--out-dir", ported)
    assert translated.ok, translated.text()
    stats = ported / "stats.hip"
    text = stats.read_text()
    assert text.count("thrust::greater<int>()") == 1
    stats.write_text(text.replace("thrust::greater<int>()", "thrust::less<int>()"))
    return {
        "rules": _verify(original),
        "wrong": _verify(original, "--pattern", "../hip/{stem}.hip"),
    }


def test_a_thrust_program_and_its_rule_translation_run_on_the_cpu_and_agree(runs: dict[str, Any]) -> None:
    code, report, stderr = runs["rules"]
    assert code == 0 and report["verdict"] == "passed", stderr + json.dumps(report, indent=1)
    run = _stage(report, "run")
    assert run["outcome"] == "passed" and "9 line(s) of output" in run["message"], run
    assert {Path(u["original"]).name for u in report["program"]["units"]} == {"stats.cu", "samples.cu"}


def test_a_port_that_sorts_the_other_way_fails_on_the_line_it_changes(runs: dict[str, Any]) -> None:
    code, report, stderr = runs["wrong"]
    assert code != 0 and report["verdict"] == "failed", stderr + json.dumps(report, indent=1)
    # the original's nvcc compile is the rule translation's verify's: a port is no part of its key
    assert _stage(report, "original")["cached"] and not _stage(report, "translation")["cached"], report
    run = _stage(report, "run")
    # its own check of the top samples exits 1 too: either difference names the defect
    assert run["outcome"] == "failed", run
    assert "'top 0 0 0'" in run["message"] or "exit code" in run["message"], run
