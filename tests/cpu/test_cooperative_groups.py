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
from cass_lsp.cpu import prepare_source
from cass_lsp.cpu.build import build, build_program
from tests.cpu.conftest import need_gxx

PROGRAM = Path(__file__).parent / "coop" / "grid_norm"
COLLECTIVES = Path(__file__).parent / "coop" / "tile_collectives.cu"
_TIMEOUT_S = 900.0
pytestmark = pytest.mark.usefixtures("own_result_cache")  # the mutant's verify reuses the original's nvcc compile


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


@pytest.fixture(scope="module")
def translated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of grid_norm with its rule translation in hip/ (where ``--pattern hip/{stem}.hip`` finds it;
    verified without a pattern, it is the rule translation's): the module verifies this one copy, so
    its mutant's verify finds the original's compile in the module's cache."""
    program = tmp_path_factory.mktemp("coop") / "grid_norm"
    shutil.copytree(PROGRAM, program)
    assert _cli("translate", "--rocm", "7.1", "--out-dir", program / "hip", program).returncode == 0
    return program


def test_tile_reductions_and_a_grid_barrier_verify_against_the_rule_translation(translated: Path) -> None:
    code, report = _verify(translated)
    assert code == 0 and report["verdict"] == "passed", json.dumps(report, indent=1)
    assert "original and translation agree (exit 0, 4 line(s) of output" in _stage(report, "run")["message"]


def _drop(translation: Path, barrier: str) -> None:
    kernels = translation / "kernels.hip"
    text = kernels.read_text()
    assert text.count(barrier) == 1
    kernels.write_text(text.replace(barrier, ";"))


def test_a_translation_without_its_grid_sync_fails(translated: Path) -> None:
    shutil.copytree(translated / "hip", translated / "no_grid_sync")
    _drop(translated / "no_grid_sync", "grid.sync();")
    code, report = _verify(translated, "--pattern", "no_grid_sync/{stem}.hip")
    assert code != 0 and report["verdict"] == "failed", json.dumps(report, indent=1)
    assert _stage(report, "run")["outcome"] == "failed"


@pytest.fixture(scope="module")
def without_tile_sync(translated: Path, tmp_path_factory: pytest.TempPathFactory) -> str:
    """The translation with its tile.sync() dropped, built for the CPU runner as the run stage builds it
    (a second verify would cost more than this suite may)."""
    work = tmp_path_factory.mktemp("coop")
    program = work / "grid_norm"
    shutil.copytree(translated, program)
    _drop(program / "hip", "tile.sync();")
    units = []
    for source in sorted((program / "hip").iterdir()):
        prepared = work / (source.name + ".cpp" if source.suffix == ".hip" else source.name)
        prepared.write_text(prepare_source(source.read_text()) if source.suffix == ".hip" else source.read_text())
        if source.suffix == ".hip":
            units.append(prepared)
    units.sort(key=lambda unit: not unit.name.startswith("main"))
    built = build_program(units, work / "without_tile_sync", hip=True)
    assert built.ok, built.log
    return built.exe


@pytest.mark.parametrize("order", ["forward", "reverse"])
def test_a_translation_without_its_tile_sync_computes_wrong_sums(without_tile_sync: str, order: str) -> None:
    result = proc.run([without_tile_sync, "20000"], timeout=60, env={**os.environ, "CASS_CPU_ORDER": order})
    out = result.stdout.decode()
    assert result.returncode == 2 and out.startswith("block stats: 79 blocks, ") and "79 blocks, 0 wrong" not in out, out


def test_a_cooperative_grid_larger_than_the_device_holds_is_refused_as_on_a_gpu(without_tile_sync: str) -> None:
    result = proc.run([without_tile_sync, "20000", "100000"], timeout=60)
    assert "cooperative launch of 100000 blocks" in result.stdout.decode()
    assert "cudaErrorCooperativeLaunchTooLarge" in result.stdout.decode()


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
