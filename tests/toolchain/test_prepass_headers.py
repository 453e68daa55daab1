"""``cass-lsp translate PROJECT --out-dir PORT`` reads the macros of the project's own headers: the
lattice project's units (realcode/headermacros: its portability macros, pragma macros and an
error-check macro live in include/lattice/config.h) are translated with no parse-error finding,
where each unit read alone had them, and the port compiles with clang-19 for AMD. The pre-pass's
side is tests/unit/test_prepass_headers.py."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from cass_lsp import toolchains
from cass_lsp.core import proc
from tests.unit.test_prepass_headers import PROJECT

_TIMEOUT_S = 300.0


def test_the_original_compiles_with_nvcc(tmp_path: Path) -> None:
    nvcc = toolchains.nvcc_invocation("sm_90")
    for unit in ("stencil.cu", "main.cu"):
        compiled = proc.run([*nvcc.argv, "-std=c++17", f"-I{PROJECT / 'include'}", "-c", "-o",
                             str(tmp_path / f"{unit}.o"), str(PROJECT / "src" / unit)], env=nvcc.env,
                            timeout=_TIMEOUT_S)
        assert compiled.ok, compiled.text()


def test_the_port_reads_its_headers_macros_and_compiles(tmp_path: Path) -> None:
    port = tmp_path / "port"
    done = subprocess.run([sys.executable, "-m", "cass_lsp", "translate", str(PROJECT), "--out-dir", str(port),
                           "--rocm", "5.2"], capture_output=True, timeout=_TIMEOUT_S, check=False)
    assert done.returncode == 0, done.stderr.decode()
    assert "parse-error" not in done.stderr.decode(), done.stderr.decode()
    units = sorted((port / "src").glob("*.hip"))
    assert [u.name for u in units] == ["main.hip", "stencil.hip"]
    hip = toolchains.hip_invocation("gfx1100", "5.2")
    for unit in units:
        for side in ("--cuda-host-only", "--cuda-device-only"):
            compiled = proc.run([*hip.argv, "-Wno-unused-result", side, "-fsyntax-only", f"-I{port / 'include'}",
                                 str(unit)], env=hip.env, timeout=_TIMEOUT_S)
            assert compiled.ok, compiled.text()
