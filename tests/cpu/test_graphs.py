"""Graphs on the CPU runner (cass_cpu/graph.hpp), through the real CLI with nvcc and clang-19.

graph_pipeline (tests/cpu/coop/graph_pipeline: two units and a header, sizes from argv) captures a
step of two kernels, a device-to-host copy and a host function from a stream into a graph and
launches it three times, then builds a graph by hand whose host node was added before the memset,
memcpy and empty nodes it depends on. Each side checks its values against the host's (exit 2
otherwise): the rule translation must verify.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from cass_lsp.core import proc
from tests.cpu.conftest import need_gxx

PROGRAM = Path(__file__).parent / "coop" / "graph_pipeline"


@pytest.fixture(scope="module", autouse=True)
def _gxx() -> None:
    need_gxx()


def test_a_captured_graph_launched_three_times_and_a_built_graph_verify() -> None:
    argv = [sys.executable, "-m", "cass_lsp", "verify", "--rocm", "7.1", str(PROGRAM), "--runner", "cpu",
            "--arg", "20000", "--arg", "3", "--json"]  # fmt: skip
    result = proc.run(argv, timeout=900.0)
    (report,) = json.loads(result.stdout)
    assert result.returncode == 0 and report["verdict"] == "passed", json.dumps(report, indent=1)
    run = next(s for s in report["stages"] if s["name"] == "run")
    assert "original and translation agree (exit 0, 4 line(s) of output" in run["message"], run
