"""A CUDA header a translation still includes is the translation's defect, whichever of the
toolkit's headers it is (cass_lsp.verify.cuda_headers); any other missing header is the machine's."""

from __future__ import annotations

from pathlib import Path

import pytest

from cass_lsp.compile.diagnostic import CompilerDiagnostic
from cass_lsp.compile.program import Program, Unit
from cass_lsp.compile.scratch import HipTarget, Scratch
from cass_lsp.core import pairs
from cass_lsp.core.proc import ProcResult
from cass_lsp.core.settings import CompilerLimits
from cass_lsp.verify import stages
from cass_lsp.verify.cuda_headers import is_cuda_header


@pytest.mark.parametrize("header", ["builtin_types.h", "driver_types.h", "texture_types.h", "cublas_v2.h",
                                    "thrust/sort.h", "cuda/std/atomic", "nvrtc.h", "crt/host_defines.h"])
def test_cuda_headers(header: str) -> None:
    assert is_cuda_header(header)


@pytest.mark.parametrize("header", ["omp.h", "hipblas/hipblas.h", "hiprand/hiprand.h", "mpi.h", "GL/glew.h", "helper_cuda.h"])
def test_other_headers(header: str) -> None:
    assert not is_cuda_header(header)


def _translation_plan() -> stages.CompilePlan:
    inputs = stages.Inputs(pairs.Pair("/w/k.cu", None), Program("/w", (Unit("/w/k.cu"),), "one file"), {"/w/k.cu": ""})
    return stages.CompilePlan("translation", "gfx1100", inputs, HipTarget("gfx1100", "7.1"), (), ((),), (), {}, {}, "")


@pytest.mark.parametrize(("header", "outcome"), [("builtin_types.h", "failed"), ("omp.h", "unavailable")])
def test_a_kept_toolkit_header_fails_the_translation(header: str, outcome: str) -> None:
    # cuda-samples' matrixMulDrv: the translation kept <builtin_types.h>; it was "could not verify"
    error = CompilerDiagnostic("error", f"'{header}' file not found", "/w/k.hip", 2)
    stderr = f"/w/k.hip:2:10: fatal error: '{header}' file not found\n".encode()
    result = stages._failed(_translation_plan(), Scratch("<tmp>", Path("/w"), {}), ProcResult(1, b"", stderr, 0.1),
                            [error], 0.1, CompilerLimits().bounds())  # fmt: skip
    assert result.outcome == outcome, result.message
