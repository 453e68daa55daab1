"""cuBLAS/hipBLAS (through OpenBLAS) and cuFFT/hipFFT on the CPU runner, through the real CLI
(``cass-lsp verify --project ... --runner cpu``), nvcc with the libraries' real headers and clang-19
with hipBLAS/hipFFT's, on two make projects of two units and a header each (tests/cpu/libraries):

- blas_app: ``A^T B`` with cublasSgemm, cublasDgemmStridedBatched, and cublasSaxpy/cublasSdot with
  a device-side scalar and result (pointer mode device), each checked by loops in the program's
  host code;
- fft_app: an R2C/C2R round trip of a batch and a batched C2C (PlanMany's basic layout), checked
  against a direct DFT in the program's host code, on a length (384) that is not a power of two.

The rule translation of each is verified by running both sides; a port whose GEMM lost its
transpose flag fails (verified after the rule translation, it finds the original's nvcc compile in
the module's result cache).
"""

from __future__ import annotations

import json
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from cass_lsp.core import proc
from cass_lsp.toolchains import cudalibs

HERE = Path(__file__).parent / "libraries"
KERNELS = Path(__file__).parent / "kernels"
BLAS_RUN = "./regression 64 48 64 3"  # m = k: the GEMM without its transpose is still a valid call
FFT_RUN = "./filter 384 3"
_TIMEOUT_S = 900.0
pytestmark = pytest.mark.usefixtures("own_result_cache")  # a wrong port's verify reuses its original's nvcc compile

Verdict = tuple[int, list[dict[str, Any]], str]


def _verify(project: Path, run: str, include: Path, *more: str | Path) -> Verdict:
    argv = [sys.executable, "-m", "cass_lsp", "verify", "--rocm", "7.1", "--project", str(project), "--build-system",
            "make", "--run", run, "--runner", "cpu", f"--nvcc-arg=-I{include}", *map(str, more), "--json"]
    result = proc.run(argv, timeout=_TIMEOUT_S)
    reports = json.loads(result.stdout) if result.stdout.strip() else []
    return result.returncode, reports, result.stderr.decode()


def _run_stage(reports: list[dict[str, Any]]) -> dict[str, Any]:
    [program] = [r for r in reports if any(s["name"] == "run" for s in r["stages"])]
    return next(s for s in program["stages"] if s["name"] == "run")


@pytest.fixture(scope="module")
def verdicts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Verdict]:
    headers = cudalibs.include_dir()  # nvcc compiles the originals against cuBLAS's and cuFFT's headers
    if headers is None:
        pytest.fail("the CUDA library headers are not fetched: run cass-lsp setup --only cuda-libs")
    cublas = cufft = headers
    port = tmp_path_factory.mktemp("blas-port")
    translated = proc.run([sys.executable, "-m", "cass_lsp", "translate", "--out-dir", str(port), str(HERE / "blas_app")],
                          timeout=_TIMEOUT_S)
    assert translated.ok, translated.text()
    ops = port / "blas_ops.hip"
    text = ops.read_text()
    assert "hipblasSgemm(h, HIPBLAS_OP_T, HIPBLAS_OP_N" in text
    ops.write_text(text.replace("hipblasSgemm(h, HIPBLAS_OP_T, HIPBLAS_OP_N", "hipblasSgemm(h, HIPBLAS_OP_N, HIPBLAS_OP_N"))

    def blas() -> dict[str, Verdict]:  # one after the other: the mutant's original compile is the first's
        return {"blas": _verify(HERE / "blas_app", BLAS_RUN, cublas),
                "blas mutant": _verify(HERE / "blas_app", BLAS_RUN, cublas, "--translation", port)}  # fmt: skip

    with ThreadPoolExecutor(2) as pool:
        blas_verdicts, fft = pool.submit(blas), pool.submit(_verify, HERE / "fft_app", FFT_RUN, cufft)
        return {**blas_verdicts.result(), "fft": fft.result()}


@pytest.mark.parametrize("app", ["blas", "fft"])
def test_the_rule_translation_of_a_library_program_is_verified_by_running_both_sides(
    verdicts: dict[str, Verdict], app: str
) -> None:
    code, reports, stderr = verdicts[app]
    assert code == 0, stderr + json.dumps(reports, indent=1)
    run = _run_stage(reports)
    assert run["outcome"] == "passed", run
    # exit 0: each side's results matched the loops of its own host code (a mismatch exits 1)
    assert "original and translation agree (exit 0" in run["message"], run["message"]
    assert "device-to-host copies compared element by element" in run["message"], run["message"]


def test_a_port_whose_gemm_lost_its_transpose_fails(verdicts: dict[str, Verdict]) -> None:
    code, reports, stderr = verdicts["blas mutant"]
    assert code == 1, stderr + json.dumps(reports, indent=1)
    run = _run_stage(reports)
    assert run["outcome"] == "failed", run
    assert "exit code differs: original 0, translation 1" in run["message"], run["message"]



@pytest.fixture(scope="module")
def routines(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The output of tests/cpu/kernels/{blas_routines,fft_layouts}.cu built for the CPU runtime."""
    from cass_lsp.cpu import build

    out = tmp_path_factory.mktemp("gpu-library-routines")
    outputs = {}
    for name in ("blas_routines", "fft_layouts"):
        source = KERNELS / f"{name}.cu"
        built = build(source, source.read_text(), out / name)
        assert built.ok, built.log
        result = proc.run([built.exe], timeout=60)
        assert result.ok, result.text()
        outputs[name] = result.stdout.decode()
    return outputs


def test_blas_routines_give_the_results_known_by_hand(routines: dict[str, str]) -> None:
    assert routines["blas_routines"].splitlines() == [
        "gemv -5 -5 -5",  # 2 * A x + y, A = [1 4; 2 5; 3 6], x = (1, -1), y = 1
        "gemvT 4 10",  # A^T (1, 0, 1)
        "ger 3 6 4 8",  # (1, 2) (3, 4)^T, column-major
        "symm 2 1 1 3",  # the lower triangle [2 .; 1 3] mirrored (99 above it is never read)
        "trsm 1 2",  # [2 0; 1 4] X = (2, 9)
        "gemmex h->f 0 1 2 3 4",  # half A times I, float C
        "gemmex h->h T 0 1 3 2 4",  # A^T in half with half scalars
        "batched 10 21",
        "amin 4 amax 3 nrm2 7.6974 asum 11.5",  # 1-based; sqrt(9 + 1 + 49 + 0.25)
        "bad lda 7, null handle 1, bad n 7, ex unsupported 15",  # INVALID_VALUE, NOT_INITIALIZED, NOT_SUPPORTED
        "CUBLAS_STATUS_INVALID_VALUE",
    ]


def test_fft_plans_of_every_shape_and_layout_match_a_direct_dft(routines: dict[str, str]) -> None:
    errors = {}
    lines = routines["fft_layouts"].splitlines()
    for line in lines[:-1]:
        label, value = line.rsplit(" ", 1)
        errors[label] = float(value)
    assert set(errors) == {"2d r2c inplace", "2d c2r inplace roundtrip", "3d z2z inverse", "d2z advanced 0"}, lines
    assert errors["2d r2c inplace"] < 1e-5 and errors["2d c2r inplace roundtrip"] < 1e-6
    assert errors["3d z2z inverse"] < 1e-12 and errors["d2z advanced 0"] < 1e-12
    assert lines[-1] == "bad plan 8, bad exec 1, bad type exec 3"  # INVALID_SIZE, INVALID_PLAN, INVALID_TYPE
