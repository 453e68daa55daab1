"""cuSPARSE and hipSPARSE on the CPU runner: a Poisson-style app (two units and a header, a CHECK
macro, the grid size from argv) builds a 5-point Laplacian in CSR on the device, then SpMV, SpMM
(row-major right-hand sides) and Xcsr2coo through the generic API. Its values are checked against
the same products computed here; the original and its rule translation verify on --runner cpu, a
mutant translation fails, and a call the runtime does not execute is refused by name."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cass_lsp.core import proc
from cass_lsp.cpu import build_program, prepare_source, unsupported
from tests.cpu.conftest import RUN_TIMEOUT_S, need_gxx


@pytest.fixture(autouse=True)
def _gxx() -> None:
    need_gxx()


PROGRAM = Path(__file__).parent / "kernels" / "sparse_app"
NX, NY = 48, 40
RHS = 3
pytestmark = pytest.mark.usefixtures("own_result_cache")  # a wrong port's verify reuses its original's nvcc compile


def _weighted(values: list[int]) -> int:
    return sum(v * (i % 13 + 1) for i, v in enumerate(values))


def _expected() -> list[str]:
    """The app's lines, from the stencil itself (no CSR): A's row r has 4 on the diagonal and -1 for
    each grid neighbour, in column order."""
    n = NX * NY

    def neighbours(r: int) -> list[int]:
        x, y = r % NX, r // NX
        return [c for c, inside in ((r - NX, y > 0), (r - 1, x > 0), (r + 1, x < NX - 1), (r + NX, y < NY - 1)) if inside]

    x = [i % 7 - 3 for i in range(n)]
    b = [i % 5 - 2 for i in range(n * RHS)]
    ax = [4 * x[r] - sum(x[c] for c in neighbours(r)) for r in range(n)]
    abx2 = [2 * (4 * b[r * RHS + j] - sum(b[c * RHS + j] for c in neighbours(r))) for r in range(n) for j in range(RHS)]
    coo = [r for r in range(n) for _ in range(1 + len(neighbours(r)))]
    return [
        f"grid {NX} x {NY}: {n} rows, {len(coo)} nonzeros",
        f"checksum(A x) = {_weighted(ax)}.0",
        f"checksum(2 A B) = {_weighted(abx2)}.0",
        f"checksum(coo rows) = {_weighted(coo)}",
    ]


def _verify(tree: Path, *flags: str) -> dict[str, object]:
    argv = [sys.executable, "-m", "cass_lsp", "verify", "--rocm", "5.2", "--runner", "cpu", "--json", *flags,
            "--arg", str(NX), "--arg", str(NY), str(tree)]
    result = subprocess.run(argv, capture_output=True, text=True, timeout=900)
    reports = json.loads(result.stdout)
    assert len(reports) == 1, result.stdout + result.stderr
    assert isinstance(reports[0], dict)
    return reports[0]


def test_the_cpu_runtime_computes_spmv_spmm_and_csr2coo(tmp_path: Path) -> None:
    for path in PROGRAM.iterdir():
        text = path.read_text()
        assert unsupported(text) == [], path.name
        (tmp_path / path.name).write_text(prepare_source(text))
    built = build_program([tmp_path / "main.cu", tmp_path / "laplacian.cu"], tmp_path / "app", hip=False)
    assert built.ok, built.log
    result = proc.run([built.exe, str(NX), str(NY)], timeout=RUN_TIMEOUT_S)
    assert result.ok, result.text()
    assert result.stdout.decode().splitlines() == _expected()


def test_the_rule_translation_verifies_and_a_mutant_fails(tmp_path: Path) -> None:
    mutant = tmp_path / "app"
    shutil.copytree(PROGRAM, mutant)
    report = _verify(mutant)
    assert report["verdict"] == "passed", report["summary"]
    assert "runs the same (cpu)" in str(report["summary"])
    # The translation's Laplacian with 3 on the diagonal: it compiles, and computes something else
    # (the original's nvcc compile just made is reused from the module's cache).
    for unit in ("main", "laplacian"):
        translated = subprocess.run(
            [sys.executable, "-m", "cass_lsp", "translate", str(mutant / f"{unit}.cu"), "-o", str(mutant / f"{unit}.hip")],
            capture_output=True, text=True, timeout=300,
        )
        assert translated.returncode == 0, translated.stderr
    hip = mutant / "laplacian.hip"
    text = hip.read_text()
    assert "values[at++] = 4.0f;" in text
    hip.write_text(text.replace("values[at++] = 4.0f;", "values[at++] = 3.0f;"))
    failed = _verify(mutant)
    assert failed["verdict"] == "failed", failed["summary"]
    assert "checksum(A x)" in json.dumps(failed)


def test_a_cusparse_call_the_runtime_does_not_execute_is_refused_by_name() -> None:
    text = (PROGRAM / "main.cu").read_text().replace(
        "  CUDA_CHECK(cudaStreamSynchronize(stream));\n\n",
        "  cusparseSpGEMMDescr_t product;\n  CUSPARSE_CHECK(cusparseSpGEMM_createDescr(&product));\n"
        "  CUDA_CHECK(cudaStreamSynchronize(stream));\n\n", 1,
    )
    found = {(u.construct, u.detail) for u in unsupported(text)}
    assert found == {
        ("library: cuSPARSE", "cusparseSpGEMMDescr_t: the CPU runtime does not execute this cuSPARSE name"),
        ("library: cuSPARSE", "cusparseSpGEMM_createDescr: the CPU runtime does not execute this cuSPARSE name"),
    }
    hip = text.replace("cusparseSpGEMM_createDescr", "hipsparseSpGEMM_createDescr")
    assert any(u.detail == "hipsparseSpGEMM_createDescr: the CPU runtime does not execute this hipSPARSE name"
               for u in unsupported(hip))
    assert unsupported((PROGRAM / "poisson.cuh").read_text()) == []
