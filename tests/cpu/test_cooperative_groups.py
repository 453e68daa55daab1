"""Cooperative groups and cooperative launches on the CPU runner (cass_cpu/cg.hpp, coop.hpp).

grid_norm (tests/cpu/coop/grid_norm: two units and a header, sizes from argv) reduces with
thread_block_tile<32> shuffles and a dynamic tiled_partition, then runs a two-phase kernel with
grid.sync() under cudaLaunchCooperativeKernel; its rule translation must verify (each side checks
its values against the host's in main.cu, and exits 2 otherwise). A translation that drops the
grid.sync() must fail: the cooperative grid's blocks take turns in block order (reversed in the
race run), so block 0's second phase reads partial sums not yet written; one that drops the
tile.sync() before a neighbour's shared-memory read must fail too (the neighbour has not run yet).

tile_collectives.cu (CUDA only: HIP's cooperative groups have no cg::reduce or scans, and the
rule translation says so) checks cg::reduce, the scans, tile votes and a coalesced_threads() group
made inside a branch against values its host code computes, in both thread orders.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from cass_lsp.core import proc
from cass_lsp.cpu.build import build
from tests.cpu.conftest import need_gxx

PROGRAM = Path(__file__).parent / "coop" / "grid_norm"
COLLECTIVES = Path(__file__).parent / "coop" / "tile_collectives.cu"
_TIMEOUT_S = 900.0


@pytest.fixture(scope="module", autouse=True)
def _gxx() -> None:
    need_gxx()


def _cli(*args: str | Path) -> proc.ProcResult:
    return proc.run([sys.executable, "-m", "cass_lsp", *map(str, args)], timeout=_TIMEOUT_S)


def _verify(*args: str | Path) -> tuple[int, dict[str, Any]]:
    result = _cli("verify", "--rocm", "7.1", *args, "--runner", "cpu", "--arg", "20000", "--json")
    (report,) = json.loads(result.stdout)
    return result.returncode, report


def _stage(report: dict[str, Any], name: str) -> dict[str, Any]:
    return next(s for s in report["stages"] if s["name"] == name)


def test_tile_reductions_and_a_grid_barrier_verify_against_the_rule_translation() -> None:
    code, report = _verify(PROGRAM)
    assert code == 0 and report["verdict"] == "passed", json.dumps(report, indent=1)
    assert "original and translation agree (exit 0, 4 line(s) of output" in _stage(report, "run")["message"]


@pytest.mark.parametrize("barrier", ["grid.sync();", "tile.sync();"])
def test_a_translation_without_a_barrier_fails(tmp_path: Path, barrier: str) -> None:
    program = tmp_path / "grid_norm"
    shutil.copytree(PROGRAM, program)
    assert _cli("translate", "--rocm", "7.1", "--out-dir", program / "hip", program).returncode == 0
    kernels = program / "hip" / "kernels.hip"
    text = kernels.read_text()
    assert text.count(barrier) == 1
    kernels.write_text(text.replace(barrier, ";"))
    code, report = _verify(program, "--pattern", "hip/{stem}.hip")
    assert code != 0 and report["verdict"] == "failed", json.dumps(report, indent=1)
    assert _stage(report, "run")["outcome"] == "failed"


@pytest.fixture(scope="module")
def collectives(tmp_path_factory: pytest.TempPathFactory) -> str:
    built = build(COLLECTIVES, COLLECTIVES.read_text(), tmp_path_factory.mktemp("coop") / "collectives")
    assert built.ok, built.log
    return built.exe


@pytest.mark.parametrize("order", ["forward", "reverse"])
def test_reduce_scans_votes_and_a_coalesced_group_in_a_branch(collectives: str, order: str) -> None:
    result = proc.run([collectives], timeout=60, env={**os.environ, "CASS_CPU_ORDER": order})
    assert result.returncode == 0, result.stdout.decode() + result.stderr.decode()
    assert result.stdout.decode().strip() == "0 of 576 values wrong"
