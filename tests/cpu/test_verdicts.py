"""Verdicts that must be true, through the real CLI (``cass-lsp verify``) with the CPU runtime, nvcc
and clang-19, on programs shaped like the ones that got false verdicts (tests/cpu/verdicts):

- two_programs: a folder of two programs sharing a scan unit, one of them with
  ``int32_t main(int32_t argc, char* argv[])`` on a line of its own: each is its own program, and runs;
- make_walks: a Makefile making ``montecarlo`` (``auto main(...) -> int``, its seed from the
  environment, as GSL programs take theirs) and ``histogram`` (``int32_t main``, one unit that
  includes its kernels from ``bins.cu``), and the project's ``runtests.sh``;
- stream_model: a benchmark table whose units sit only in its header (``time(ms)``, ``GB/s``), its
  hand port modelling another device's peak bandwidth.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from cass_lsp.core import proc

HERE = Path(__file__).parent / "verdicts"
WALKS = HERE / "make_walks"
_TIMEOUT_S = 900.0
# the verifies of make_walks share its programs' compiles (montecarlo's three, histogram's two)
pytestmark = pytest.mark.usefixtures("own_result_cache")


def _verify(*args: str | Path) -> tuple[int, list[dict[str, Any]], str]:
    argv = [sys.executable, "-m", "cass_lsp", "verify", "--rocm", "7.1", *map(str, args), "--json"]
    result = proc.run(argv, timeout=_TIMEOUT_S)
    reports = json.loads(result.stdout) if result.stdout.strip() else []
    return result.returncode, reports, result.stderr.decode()


def _walks(run: str, *more: str | Path) -> tuple[int, list[dict[str, Any]], str]:
    return _verify("--project", WALKS, "--build-system", "make", "--run", run, "--runner", "cpu", *more)


def _stage(report: dict[str, Any], name: str) -> dict[str, Any]:
    return next(s for s in report["stages"] if s["name"] == name)


def _units(report: dict[str, Any]) -> set[str]:
    return {Path(u["original"]).name for u in report["program"]["units"]}


def test_a_folder_of_two_programs_one_with_an_int32_t_main_verifies_each_by_running_it() -> None:
    code, reports, stderr = _verify(HERE / "two_programs", "--runner", "cpu", "--arg", "4096")
    assert code == 0, stderr + json.dumps(reports, indent=1)
    by_main = {Path(r["program"]["main"]).name: r for r in reports}
    assert set(by_main) == {"prefix_sum.cu", "scan_bench.cu"}
    assert _units(by_main["prefix_sum.cu"]) == {"prefix_sum.cu", "scan.cu"}  # not merged with the other program
    assert _units(by_main["scan_bench.cu"]) == {"scan_bench.cu", "scan.cu"}
    for report in reports:
        assert report["verdict"] == "passed" and _stage(report, "run")["outcome"] == "passed", report["summary"]


def test_a_program_asked_to_run_runs_whatever_the_spelling_of_its_main() -> None:
    code, reports, stderr = _walks("./histogram 4096")
    assert code == 0, stderr + json.dumps(reports, indent=1)
    (report,) = reports
    assert report["program"]["main"].endswith("histogram.cu")
    run = _stage(report, "run")
    assert run["outcome"] == "passed" and "17 line(s) of output" in run["message"], run


def test_a_run_line_with_a_variable_and_a_continuation_line_sets_it_for_both_runs() -> None:
    # montecarlo exits 2 without WALK_SEED: a pass means both sides ran with it
    code, reports, stderr = _walks("WALK_SEED=7 ./montecarlo 1024 \\\n    8")
    assert code == 0, stderr + json.dumps(reports, indent=1)
    (report,) = reports
    assert report["summary"].startswith("WALK_SEED=7 ./montecarlo 1024 8: ")
    assert _units(report) == {"montecarlo.cu", "walk.cu"}
    assert "8 line(s) of output" in _stage(report, "run")["message"]


def test_a_script_of_the_project_runs_the_program_in_both_trees() -> None:
    code, reports, stderr = _walks("./runtests.sh")
    assert code == 0, stderr + json.dumps(reports, indent=1)
    (report,) = reports
    run = _stage(report, "run")
    # two runs of montecarlo (4 and 2 rounds) and the script's last line
    assert run["outcome"] == "passed" and "by runtests.sh" in run["message"] and "7 line(s)" in run["message"], run
    assert _units(report) == {"montecarlo.cu", "walk.cu"}


@pytest.mark.parametrize(
    ("run", "why"),
    [
        ("./montecarlo 64 && ./histogram 64", "holds '&&', which needs a shell"),
        ("WALK_SEED=$SEED ./montecarlo 64", "expands variables or commands"),
        ("LD_PRELOAD=./hook.so ./montecarlo 64", "sets LD_PRELOAD, which the sandbox decides"),
        ("./Makefile", "Makefile is not an executable the build makes (its executables: montecarlo, histogram), nor a script"),
    ],
)
def test_a_run_line_that_needs_a_shell_is_refused_with_the_reason(run: str, why: str) -> None:
    code, reports, stderr = _walks(run)
    assert code == 2 and [r["verdict"] for r in reports] == ["unverified"], stderr
    assert why in stderr and why in reports[0]["summary"], stderr


def test_an_original_past_the_time_limit_says_which_limit_stopped_it_and_how_to_run_smaller() -> None:
    code, reports, stderr = _walks("WALK_SEED=1 ./montecarlo 4000000 1000", "--timeout", "2")
    assert code == 2, stderr + json.dumps(reports, indent=1)
    message = _stage(reports[0], "run")["message"]
    assert "(timed out after 2 s)" in message and "the limit is cass.verification.limits.timeoutSeconds (verify --timeout)" in message
    assert "it ran with the arguments 4000000 1000 and WALK_SEED=1" in message, message
    assert "cass.verification.args" in message and '--run "PROG SMALLER-ARGS"' in message, message


def test_an_include_left_on_a_file_the_translation_renamed_fails_the_translation(tmp_path: Path) -> None:
    out = tmp_path / "make_walks-hip"
    translated = proc.run([sys.executable, "-m", "cass_lsp", "translate", str(WALKS), "--out-dir", str(out)], timeout=300)
    assert translated.ok, translated.text()
    # a port (by hand, by a model) that renamed bins.cu and kept the include: the build's -Isrc
    # reaches the original's bins.cu, which must not stand in for the port's
    hip = out / "src" / "histogram.hip"
    hip.write_text(hip.read_text().replace('#include "bins.hip"', '#include "bins.cu"'))
    assert '#include "bins.cu"' in hip.read_text() and (out / "src" / "bins.hip").is_file()
    code, reports, stderr = _walks("./histogram 4096", "--translation", out)
    assert code == 1, stderr + json.dumps(reports, indent=1)
    report = next(r for r in reports if r["summary"].startswith("./histogram"))
    assert report["verdict"] == "failed"
    translation = _stage(report, "translation")
    assert 'histogram.hip:7: the translation includes "bins.cu", a file it renamed to bins.hip' in translation["message"]
    assert translation["diagnostics"][0]["file"] == str(hip) and translation["diagnostics"][0]["line"] == 7


def test_an_include_of_a_file_the_ported_tree_lacks_is_the_translations_failure(tmp_path: Path) -> None:
    """Ports kept apart (``../hip/{stem}.hip``), no ``-I``: clang finds nothing, and the original's
    tree has the file: no "header of the system" to install."""
    cuda, hip = tmp_path / "cuda", tmp_path / "hip"
    shutil.copytree(WALKS / "src", cuda)
    (cuda / "walk.cu").unlink()
    (cuda / "montecarlo.cu").unlink()
    shutil.copytree(cuda, hip)
    for name in ("histogram", "bins"):
        (hip / f"{name}.cu").rename(hip / f"{name}.hip")
    (hip / "bins.hip").unlink()  # the port lost it
    (cuda / "walk.cuh").write_text("#define WALK_STEPS 64\n" + (cuda / "walk.cuh").read_text())
    (hip / "walk.cuh").write_text("#define WALK_STEPS 64\n" + (hip / "walk.cuh").read_text())
    code, reports, stderr = _verify(cuda / "histogram.cu", "--pattern", "../hip/{stem}.hip")
    report = next(r for r in reports if r["program"]["main"].endswith("histogram.cu"))
    assert code == 1 and report["verdict"] == "failed", stderr + json.dumps(reports, indent=1)
    message = _stage(report, "translation")["message"]
    assert 'at histogram.hip:6: the translation includes "bins.cu", which its tree lacks' in message, message


def test_a_table_with_its_units_in_the_header_masks_its_timings(tmp_path: Path) -> None:
    folder = tmp_path / "stream_model"
    shutil.copytree(HERE / "stream_model", folder)
    translated = proc.run([sys.executable, "-m", "cass_lsp", "translate", str(folder / "triad.cu"), "-o", str(folder / "triad.hip")],
                          timeout=300)  # fmt: skip
    assert translated.ok, translated.text()
    # the port models its own device: every time and rate of the table differs, nothing else
    hip = folder / "triad.hip"
    text = hip.read_text()
    assert "kPeakGBs = 1555.0;" in text
    hip.write_text(text.replace("kPeakGBs = 1555.0;  // A100 40 GB, HBM2", "kPeakGBs = 1638.4;  // MI250X, one GCD"))
    code, reports, stderr = _verify(folder / "triad.cu", "--runner", "cpu", "--arg", "4096")
    assert code == 0, stderr + json.dumps(reports, indent=1)
    assert "6 line(s) of output" in _stage(reports[0], "run")["message"]


def test_a_translation_stopped_at_a_warp_collective_amd_hardware_never_waits_at_could_not_be_verified(
    tmp_path: Path,
) -> None:
    """cuda-samples' shfl_scan was "failed: the translation deadlocks": its divergent __shfl_up_sync
    with an 8-lane mask becomes HIP 5.2's mask-less __shfl_up, which the CPU runtime runs as a
    whole-warp collective, while a GPU runs it with the active lanes and does not wait."""
    folder = tmp_path / "divergent_shuffle"
    shutil.copytree(HERE / "divergent_shuffle", folder)
    code, reports, stderr = _verify(folder / "scan8.cu", "--rocm", "5.2", "--runner", "cpu")
    assert code == 2, stderr + json.dumps(reports, indent=1)
    run = _stage(reports[0], "run")
    assert run["outcome"] == "unavailable", run
    assert "AMD GPU runs it with the lanes active there" in run["message"], run["message"]
    assert "8 at a warp collective" in run["message"], run["message"]
