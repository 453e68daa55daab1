"""`cass-lsp verify --runner cpu` on a program of two units and a header (programs/diff_app) whose
HIP port drops the `__syncthreads()` before each thread reads the element the thread below it
stored: with threads run first to last that read always finds the store, so only a second run in
reverse order shows the race; the verdict names the kernel and its line."""

from __future__ import annotations

from pathlib import Path

import pytest

from cass_lsp.cli import main as cli
from tests.toolchain.programs import copied, verify


@pytest.fixture
def program(tmp_path: Path) -> Path:
    return copied("diff_app", tmp_path)


def test_a_port_that_drops_a_barrier_before_a_lower_index_read_fails_as_a_race(
    program: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["translate", str(program / "filters.cu"), "-o", str(program / "filters.hip")]) == 0
    capsys.readouterr()
    code, out = verify(capsys, str(program), "--runner", "cpu")
    assert code == 0, out  # the faithful port, and the original with its reversed run, agree
    hip = (program / "filters.hip").read_text()
    assert hip.count("  __syncthreads();\n") == 1
    (program / "filters.hip").write_text(hip.replace("  __syncthreads();\n", ""))
    code, out = verify(capsys, str(program), "--runner", "cpu")
    assert code == 1, out
    line = next(n for n, text in enumerate(hip.splitlines(), 1) if "void backward_diff(" in text)
    assert "a race: with each block's threads in reverse order the translation's output changes" in out, out
    assert f"in kernel backward_diff ({program / 'filters.hip'}:{line})" in out, out
