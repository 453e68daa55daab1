"""A HIP library's headers missing or failing for the target ROCm are this machine's gap, never the
translation's failure, and only then (verify's end-to-end cases: test_verify_programs)."""

from __future__ import annotations

from cass_lsp import toolchains
from cass_lsp.compile.diagnostic import CompilerDiagnostic
from cass_lsp.core import settings
from cass_lsp.toolchains import nvidia
from cass_lsp.verify import library_headers
from cass_lsp.verify.cuda_headers import is_cuda_header


def test_a_missing_header_is_the_machines_only_where_its_library_is_not_on_the_profiles_path() -> None:
    assert "--rocm 5.2 has them" in (library_headers.missing_header("hipcub/hipcub.hpp", "7.1") or "")
    # rocThrust is there for ROCm 5.2: a Thrust header it lacks is a CUDA one the translation kept
    assert library_headers.missing_header("thrust/not_in_rocthrust.h", "5.2") is None
    assert library_headers.missing_header("hiprand/not_in_hiprand.h", "7.1") is None
    assert library_headers.missing_header("omp.h", "7.1") is None  # not a library's: stages says what it is


def test_an_error_in_library_headers_that_compile_alone_stays_the_translations() -> None:
    """Under ROCm 5.2 the rocRAND headers compile on their own (the probe is a real compile), so an
    error clang reports in one of them comes from the translation's use of it."""
    compiler = toolchains.hip_invocation("gfx1100", "5.2")
    in_header = CompilerDiagnostic("error", "no matching function for call to 'f'",
                                   "/usr/include/rocrand/rocrand_philox4x32_10.h", 193)
    limits = settings.CompilerLimits().bounds()
    assert library_headers.failing_library(in_header, compiler.argv, compiler.env, "5.2", limits) is None


# cass_lsp/verify/cuda_headers.py lists the CUDA 13 toolkit's headers: none of the installed nvcc's is left out
def test_every_header_of_the_installed_nvcc_is_cudas() -> None:
    include = nvidia.require().nvcc.resolve().parent.parent / "include"
    entries = sorted(p.name for p in include.iterdir())
    assert "builtin_types.h" in entries  # the folder is the toolkit's
    assert [name for name in entries if not is_cuda_header(name)] == []
