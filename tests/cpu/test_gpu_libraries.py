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

Complex cuBLAS (tests/cpu/kernels/complex_blas.cu) is built for the CPU runtime with its rule
translation and checked against values computed here; a port whose Cdotc lost its conjugate
(Cdotu) differs on that line. Through the CLI the rule translation is "could not verify" with a
run that agrees (the ROCm 7.1 profile's hipBLAS headers, Debian 13's ROCm 5.5, lack the _v2 names
it calls, so clang-19 cannot check it), and that port fails by its run.
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
        "herk 2+0i 2-2i 99 4 syrk 0+2i 99 2+2i 4 gemm3m 5+5i",  # A A^H lower, A A^T upper; (1+2i)(3-i)
        "gemmex z 0 2+0i icamax 3 icamin 1 scasum 9 csscal 2+2i zdscal 2-1i",  # (1+i)(1-i); |re|+|im| = 2, 3, 4
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


def _entry(i: int) -> complex:
    """Element ``i`` of tests/cpu/kernels/complex_blas.cu's operands (its entry())."""
    return complex(i % 5 - 2, i % 3 - 1)


def _line(label: str, values: list[complex]) -> str:
    return label + "".join(f" {v.real:g}{v.imag:+g}i" for v in values)


def _complex_blas_lines() -> list[str]:
    """What tests/cpu/kernels/complex_blas.cu prints, computed here from BLAS's definitions."""
    a = [_entry(i) for i in range(12)]  # 3x4, column-major
    b = [_entry(2 * i + 1) for i in range(8)]  # 2x4
    gemm = [(1 + 1j) * sum(a[j * 3 + r] * b[j * 2 + c].conjugate() for j in range(4)) + 1j
            for c in range(2) for r in range(3)]  # fmt: skip
    strided = [sum(a[4 * i + r * 2 + j] * b[4 * i + c * 2 + j] for j in range(2))
               for i in range(2) for c in range(2) for r in range(2)]  # fmt: skip
    dotc = sum(x.conjugate() * y for x, y in zip(a[:6], b[:6], strict=True))
    norm = sum(abs(x) ** 2 for x in a) ** 0.5
    x = [_entry(i + 3) for i in range(3)]
    y = [(0.5 - 1j) * x[i] + _entry(2 * i) for i in range(3)]
    m = [_entry(3 * i + 2) for i in range(6)]  # 3x2
    gemv = [(2 + 1j) * sum(m[c * 3 + r].conjugate() * x[r] for r in range(3)) + y[c] for c in range(2)]
    return [_line("cgemm", gemm), _line("cgemm strided", strided),
            f"cdotc {dotc.real:g}{dotc.imag:+g}i scnrm2 {norm:.6f}", _line("zaxpy", y), _line("zgemv", gemv)]  # fmt: skip


@pytest.fixture(scope="module")
def complex_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    """The output of tests/cpu/kernels/complex_blas.cu, of its rule translation (hipBLAS's _v2
    names, hipComplex), of the translation with hipBLAS's plain names (as HIPBLAS_V2 spells them),
    of a port whose Cdotc became Cdotu, and of tests/cpu/kernels/hipblas_complex_classes.hip, each
    built for the CPU runtime."""
    from cass_lsp.cpu import build

    out = tmp_path_factory.mktemp("complex-blas")
    source = KERNELS / "complex_blas.cu"
    translated = proc.run([sys.executable, "-m", "cass_lsp", "translate", "--rocm", "7.1", "--out-dir", str(out / "port"),
                           str(source)], timeout=_TIMEOUT_S)  # fmt: skip
    assert translated.ok, translated.text()
    port = out / "port" / "complex_blas.hip"
    text = port.read_text()
    assert text.count("hipblasCdotc_v2(") == 1 and "hipComplex" in text, text
    wrong = out / "wrong" / "complex_blas.hip"
    wrong.parent.mkdir()
    wrong.write_text(text.replace("hipblasCdotc_v2(", "hipblasCdotu_v2("))
    plain = out / "plain" / "complex_blas.hip"
    plain.parent.mkdir()
    plain.write_text(text.replace("_v2(", "("))
    sources = {"original": source, "rules": port, "plain": plain, "wrong": wrong,
               "classes": KERNELS / "hipblas_complex_classes.hip"}  # fmt: skip
    outputs = {}
    for name, path in sources.items():
        built = build(path, path.read_text(), out / name)
        assert built.ok, built.log
        result = proc.run([built.exe], timeout=60)
        assert result.ok, result.text()
        outputs[name] = result.stdout.decode().splitlines()
    return outputs


def test_complex_blas_routines_give_the_values_computed_independently(complex_runs: dict[str, list[str]]) -> None:
    assert complex_runs["original"] == _complex_blas_lines()


def test_the_rule_translation_of_complex_blas_runs_the_same_on_the_cpu(complex_runs: dict[str, list[str]]) -> None:
    assert complex_runs["rules"] == complex_runs["original"]
    assert complex_runs["plain"] == complex_runs["original"]


def test_hipblas_plain_names_take_rocm5s_complex_classes(complex_runs: dict[str, list[str]]) -> None:
    assert complex_runs["classes"] == ["dotc 8+3i dotu 4-1i batched 8+3i zaxpy -2+2i icamax 2"]


def test_a_port_that_drops_cdotcs_conjugate_differs_on_that_line_only(complex_runs: dict[str, list[str]]) -> None:
    a, b = [_entry(i) for i in range(6)], [_entry(2 * i + 1) for i in range(6)]
    dotu = sum(x * y for x, y in zip(a, b, strict=True))
    original, wrong = complex_runs["original"], complex_runs["wrong"]
    assert [i for i, (o, w) in enumerate(zip(original, wrong, strict=True)) if o != w] == [2]
    assert wrong[2].startswith(f"cdotc {dotu.real:g}{dotu.imag:+g}i "), wrong[2]


def _verify_file(source: Path, headers: Path) -> tuple[int, dict[str, Any], str]:
    result = proc.run([sys.executable, "-m", "cass_lsp", "verify", "--rocm", "7.1", str(source), "--runner", "cpu",
                       f"--nvcc-arg=-I{headers}", "--json", "--no-cache"], timeout=_TIMEOUT_S)  # fmt: skip
    [report] = json.loads(result.stdout)
    return result.returncode, report, result.text()


def _stage(report: dict[str, Any], name: str) -> dict[str, Any]:
    return next(s for s in report["stages"] if s["name"] == name)


def test_complex_blas_verifies_on_the_cpu_without_hipblas_headers_for_its_v2_names(tmp_path: Path) -> None:
    """The rule translation calls hipblasCgemm_v2 (ROCm 6.0), which the ROCm 7.1 profile's hipBLAS
    headers (Debian 13's, ROCm 5.5) do not declare: the headers' gap, not the translation's defect,
    and the CPU run still runs. Before: "failed: clang-19 rejects the rule translation ... undeclared
    identifier 'hipblasCgemm_v2'", no run; the port with Cdotu for Cdotc was "failed" for the same
    reason, not its own."""
    headers = cudalibs.include_dir()
    if headers is None:
        pytest.fail("the CUDA library headers are not fetched: run cass-lsp setup --only cuda-libs")
    rules, wrong = tmp_path / "rules" / "complex_blas.cu", tmp_path / "wrong" / "complex_blas.cu"
    for source in (rules, wrong):
        source.parent.mkdir()
        source.write_text((KERNELS / "complex_blas.cu").read_text())
    translated = proc.run([sys.executable, "-m", "cass_lsp", "translate", "--rocm", "7.1", "--out-dir",
                           str(tmp_path / "port"), str(rules)], timeout=_TIMEOUT_S)  # fmt: skip
    assert translated.ok, translated.text()
    port = (tmp_path / "port" / "complex_blas.hip").read_text()
    wrong.with_suffix(".hip").write_text(port.replace("hipblasCdotc_v2(", "hipblasCdotu_v2("))
    with ThreadPoolExecutor(2) as pool:
        (code, report, log), (wrong_code, wrong_report, wrong_log) = pool.map(
            lambda source: _verify_file(source, headers), (rules, wrong))
    assert code == 2 and report["verdict"] == "unverified", log
    translation = _stage(report, "translation")
    assert translation["outcome"] == "unavailable", translation
    assert "do not declare hipblasCgemm_v2, which the target ROCm has (since ROCm 6.0.0)" in translation["message"]
    assert _stage(report, "run")["outcome"] == "passed", report
    assert wrong_code == 1 and wrong_report["verdict"] == "failed", wrong_log
    assert "output line 3 differs: expected 'cdotc 9-1i" in _stage(wrong_report, "run")["message"], wrong_report
