"""Every corpus program is real CUDA: the original compiles with the wheel's nvcc (sm_90).

``--ptx`` runs nvcc's whole front end (host and device code are both type-checked) and device
code generation, without the slower host compiler pass.
"""

from __future__ import annotations

import os

import pytest

from cass_lsp import toolchains
from cass_lsp.core import proc
from tests.corpus.manifest import PROGRAMS_DIR, Program, programs

_NVCC_TIMEOUT_S = 300.0


def test_manifest_lists_every_program() -> None:
    listed = {p.file for p in programs()}
    headers = {h for p in programs() for h in p.headers}
    on_disk = {f.name for f in PROGRAMS_DIR.glob("*.cu")}
    assert listed == on_disk, f"not in manifest: {on_disk - listed}; missing files: {listed - on_disk}"
    assert headers == {f.name for f in PROGRAMS_DIR.glob("*.cuh")}
    assert len(listed) >= 30


@pytest.mark.parametrize("program", programs(), ids=lambda p: p.name)
def test_original_compiles_with_nvcc(
    program: Program, nvcc: toolchains.Invocation
) -> None:
    argv = [*nvcc.argv, *program.nvcc, "--ptx", "-o", os.devnull, program.file]
    result = proc.run(argv, env=nvcc.env, cwd=PROGRAMS_DIR, timeout=_NVCC_TIMEOUT_S)
    assert result.ok, f"nvcc rejected {program.file}:\n{result.text()}"
