"""``cass-lsp translate PROJECT --out-dir PORT`` on a multi-model project: the sources of the other
models (OpenMP, SYCL, Kokkos, RAJA, TBB, std::par, OpenACC) are copied as they are and named by no
finding (they got ``parse-error`` warnings), and the CUDA model's port compiles with clang-19 for
AMD. The engine's side is tests/unit/test_translate_relevance.py."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from cass_lsp import toolchains
from cass_lsp.core import proc
from tests.unit.test_translate_relevance import OTHER_MODELS, PROJECT

_TIMEOUT_S = 300.0


def test_other_models_are_copied_as_they_are_and_the_cuda_model_compiles(tmp_path: Path) -> None:
    port = tmp_path / "port"
    done = subprocess.run([sys.executable, "-m", "cass_lsp", "translate", str(PROJECT), "--out-dir", str(port),
                           "--rocm", "5.2"], capture_output=True, timeout=_TIMEOUT_S, check=False)
    assert done.returncode == 0, done.stderr.decode()
    report = done.stderr.decode()
    for path in OTHER_MODELS:
        assert (port / path).read_bytes() == (PROJECT / path).read_bytes(), path
        assert path not in report, report
    assert "parse-error" not in report, report
    hip = toolchains.hip_invocation("gfx1100", "5.2")
    for unit in sorted((port / "src" / "cuda").glob("*.hip")):
        for side in ("--cuda-host-only", "--cuda-device-only"):
            compiled = proc.run([*hip.argv, "-Wno-unused-result", side, "-fsyntax-only", f"-I{port / 'src'}",
                                 f"-I{port / 'src' / 'cuda'}", str(unit)], env=hip.env, timeout=_TIMEOUT_S)
            assert compiled.ok, compiled.text()
    assert sorted(p.name for p in (port / "src" / "cuda").glob("*.hip")) == ["CudaAdvector.hip", "factory.hip"]
