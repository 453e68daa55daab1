"""Thrust on the CPU runner, through the real CLI (``cass-lsp verify ... --runner cpu``: nvcc and
clang-19 compile the pair, g++ builds both for the CPU runtime against CCCL's Thrust):
tests/cpu/thrust_stats is a program of two units and a header (a CUDA_CHECK macro, kernels launched
on raw_pointer_cast pointers of device_vectors, __host__ __device__ functors) that sorts, reduces,
scans and transforms samples with Thrust on a stream (``thrust::cuda::par.on``), a sample count
from argv.

Its rule translation (rocThrust's ``thrust::hip::par``) verifies, with the values the program prints
checked against the same statistics computed here; a translation that sorts the other way fails.
"""

from __future__ import annotations

import itertools
import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from cass_lsp.core import proc

PROGRAM = Path(__file__).parent / "thrust_stats"
SAMPLES = 1 << 18
_SEED = 12345  # the program's default
_TIMEOUT_S = 1200.0
_MASK = 0xFFFFFFFF


def _cli(*args: str | Path) -> proc.ProcResult:
    return proc.run([sys.executable, "-m", "cass_lsp", *map(str, args)], timeout=_TIMEOUT_S)


def _verify(folder: Path, *more: str) -> tuple[int, dict[str, Any], str]:
    # rocThrust is in the ROCm 5.2 profile's library headers (7.1's leaves it out: hiplibs.NOT_IN_PROFILE)
    result = _cli("verify", folder, "--runner", "cpu", "--rocm", "5.2", "--arg", str(SAMPLES), "--json", "--no-cache",
                  "--compile-timeout", "900", *more)  # fmt: skip
    reports = json.loads(result.stdout) if result.stdout.strip() else []
    assert len(reports) == 1, result.text()
    return result.returncode, reports[0], result.stderr.decode()


def _stage(report: dict[str, Any], name: str) -> dict[str, Any]:
    return next(s for s in report["stages"] if s["name"] == name)


def _expected_output(n: int, seed: int) -> str:
    """The program's lines, computed without Thrust or the runtime."""

    def mix(x: int) -> int:
        x ^= x >> 16
        x = (x * 0x45D9F3B) & _MASK
        return x ^ (x >> 16)

    samples = [mix(((i * 2654435761) & _MASK) ^ seed) % 1000 for i in range(n)]
    order = sorted(range(n), key=lambda i: (samples[i], i))  # stable: equal samples keep their order
    ordered = [samples[i] for i in order]
    scan = list(itertools.accumulate(ordered))
    half = n // 2
    return "".join([
        f"n {n} sum {sum(samples)} squares {sum(v * v for v in samples)} high {sum(v >= 500 for v in samples)}\n",
        f"min {ordered[0]} {ordered[1]} max {ordered[-2]} {ordered[-1]} median {ordered[half]}\n",
        "first index {} {} {} {}\n".format(*order[:4]),
        f"distinct {len(set(samples))}\n",
        "top {} {} {}\n".format(*ordered[::-1][:3]),
        f"scan mid {scan[half]} last {scan[-1]} exclusive last {scan[-1] - ordered[-1]}\n",
        f"centred {sum(v - 500 for v in samples)} ramp {sum(i * 3 % 7 for i in range(n))}\n",
        f"buffer {sum(samples[:half]) + 3 * (n - half)}\n",
    ])  # fmt: skip


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
    assert run["outcome"] == "passed" and "8 line(s) of output" in run["message"], run
    assert {Path(u["original"]).name for u in report["program"]["units"]} == {"stats.cu", "samples.cu"}


def test_the_statistics_thrust_computed_are_the_right_ones(runs: dict[str, Any]) -> None:
    _, report, _ = runs["rules"]
    assert _stage(report, "run")["output"] == _expected_output(SAMPLES, _SEED)


def test_a_port_that_sorts_the_other_way_fails_on_the_line_it_changes(runs: dict[str, Any]) -> None:
    code, report, stderr = runs["wrong"]
    assert code != 0 and report["verdict"] == "failed", stderr + json.dumps(report, indent=1)
    run = _stage(report, "run")
    assert run["outcome"] == "failed" and "top" in json.dumps(run["mismatch"]), run
