"""``translate --roc``: library-heavy programs become rocBLAS/rocSPARSE/rocRAND/rocSOLVER (and
cuDNN MIOpen) code that compiles with clang-19 against the real library headers. cuFFT becomes
hipFFT, as with hipify's ``--roc`` (HIPIFY's "CUDA APIs supported by ROC" are cuBLAS, cuSPARSE,
cuRAND and cuDNN, and the API tables carry no rocFFT column): a program mixing cuFFT and cuBLAS
gets hipFFT and rocBLAS, and a note that says why.

Targets: ROCm 5.2 and 7.1 HIP headers, each for gfx1100 (wave32) and gfx942 (wave64). Library
headers: rocBLAS and rocSOLVER 5.5 from Debian 13 (``cass-lsp setup
--only hip-libs``), rocSPARSE and rocRAND 5.3 from Debian 12. No Debian release (12 or 13) packages MIOpen, no PyPI
package provides its headers, and Debian's rocRAND 5.3 device headers do not build against HIP
7.1: there the test proves that clang stops only in those headers (or at the missing include),
checking the translation up to them, and reports the case as xfail with the reason.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import NamedTuple

import pytest

from cass_lsp.cli import translate as cli
from cass_lsp.toolchains import hiplibs
from cass_lsp.translate import TargetProfile, TranslateOptions, TranslationResult, libraries, translate
from tests.corpus.amd import Target, error_file, full_compile, missing_header, probe, syntax_check
from tests.corpus.manifest import ROCM_VERSIONS, WAVE32_ARCH, WAVE64_ARCH

PROGRAMS_DIR = Path(__file__).parent / "roc_programs"
NO_MIOPEN = ("no Debian release (12 or 13) packages MIOpen and no PyPI package provides its headers "
             "(miopen/miopen.h); the table tests check the cuDNN -> MIOpen names")


class Program(NamedTuple):
    file: str
    headers: tuple[str, ...]  # the ROC/MIOpen includes the translation must have
    unsupported: tuple[str, ...] = ()  # CUDA names with no equivalent (an unsupported-api error)


PROGRAMS = (
    Program("blas_gemm_dot.cu", ("rocblas/rocblas.h",)),
    Program("sparse_csr_convert.cu", ("rocsparse/rocsparse.h",)),
    Program("rand_host_device.cu", ("rocrand/rocrand.h", "rocrand/rocrand_kernel.h")),
    Program("solver_cholesky.cu", ("rocblas/rocblas.h", "rocsolver/rocsolver.h")),
    Program("fft_spectral_blas.cu", ("hipfft/hipfft.h", "rocblas/rocblas.h")),
    Program("dnn_activation_softmax.cu", ("miopen/miopen.h",),
            ("cudnnSetTensor4dDescriptor",)),
)
TARGETS = tuple(Target(rocm, arch) for rocm in ROCM_VERSIONS for arch in (WAVE32_ARCH, WAVE64_ARCH))
CASES = [pytest.param(p, t, id=f"{p.file.removesuffix('.cu')}-{t.id}") for p in PROGRAMS for t in TARGETS]

_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"]([^>"]+)[>"]', re.MULTILINE)
_NOT_CODE = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|^[ \t]*#[ \t]*include[^\n]*', re.DOTALL | re.MULTILINE)
# Names of the CUDA libraries and of their hip* layers: neither may be left in a --roc translation.
_LIBRARY_NAME = re.compile(r"\b(?:(?:cu|hip)(?:blas|sparse|rand|solver|dnn)\w*|(?:CU|HIP)(?:BLAS|SPARSE|RAND|SOLVER|DNN)_\w*"
                           r"|cusolver_int_t|curand\w*)")


@functools.cache
def translated(file: str, target: Target) -> TranslationResult:
    return translate((PROGRAMS_DIR / file).read_text(encoding="utf-8"), TargetProfile(arch=target.arch, rocm=target.rocm),
                     TranslateOptions(libraries="roc"))


@pytest.mark.parametrize(("program", "target"), CASES)
def test_roc_names_headers_and_findings(program: Program, target: Target) -> None:
    result = translated(program.file, target)
    included = set(_INCLUDE.findall(result.text))
    assert set(program.headers) <= included, f"missing {sorted(set(program.headers) - included)}; has {sorted(included)}"
    # Besides names with no equivalent, only names newer than the target (miopenTensorNCHW: 5.3) are errors.
    errors = {f.name for f in result.findings if f.severity == "error"}
    unsupported = {f.name for f in result.findings if f.severity == "error" and f.code == "unsupported-api"}
    others = [f.message for f in result.findings if f.severity == "error" and f.code not in (
        "unsupported-api", "api-newer-than-target")]
    assert unsupported == set(program.unsupported) and not others, [f.message for f in result.findings]
    left = {m.group(0) for m in _LIBRARY_NAME.finditer(_NOT_CODE.sub(" ", result.text))} - errors
    assert not left, f"CUDA or hip* library names left in the --roc translation: {sorted(left)}"


def test_unsupported_cudnn_names_the_missing_function() -> None:
    result = translated("dnn_activation_softmax.cu", Target("7.1", WAVE32_ARCH))
    messages = [f.message for f in result.findings if f.name == "cudnnSetTensor4dDescriptor"]
    assert messages == ["cudnnSetTensor4dDescriptor has no MIOpen equivalent"]
    assert "miopenSoftmaxForward_V2(" in result.text and "miopenCreate(&handle)" in result.text


def test_cufft_stays_hipfft_beside_rocblas_and_says_so_once() -> None:
    result = translated("fft_spectral_blas.cu", Target("7.1", WAVE32_ARCH))
    notes = [f for f in result.findings if f.message == libraries.FFT_UNDER_ROC]
    assert len(notes) == 1 and notes[0].severity == "info"
    assert "hipfftPlanMany(&plan, 1, lengths, nullptr, 1, n, nullptr, 1, n, HIPFFT_C2C, batch)" in result.text
    assert "rocblas_snrm2(blas, 2 * total," in result.text


def test_solver_workspace_arguments_are_rewritten() -> None:
    text = translated("solver_cholesky.cu", Target("7.1", WAVE32_ARCH)).text
    assert "(*(&lwork) = 0, rocblas_status_success);" in text
    assert "rocsolver_spotrf(solver, rocblas_fill_lower, n, a, n, info)" in text
    assert "const rocblas_int n = 32;" in text


@pytest.mark.parametrize(("program", "target"), CASES)
def test_roc_translation_compiles(program: Program, target: Target, tmp_path: Path) -> None:
    source = tmp_path / f"{program.file.removesuffix('.cu')}.hip"
    source.write_text(translated(program.file, target).text, encoding="utf-8")
    libraries = [probe(target.rocm, header) for header in program.headers]
    missing = [lib.header for lib in libraries if lib.state == "missing"]
    unexplained = [h for h in missing if not h.startswith("miopen/")]
    assert not unexplained, f"library headers missing for ROCm {target.rocm}: {unexplained}; run {hiplibs.SETUP_HINT}"
    if missing:
        errors = syntax_check(target, source, tmp_path)
        assert errors and {missing_header(e) for e in errors} <= set(missing), "\n".join(errors)
        pytest.xfail(f"{NO_MIOPEN}; translation checked up to the include")
    errors = full_compile(target, source, tmp_path)
    broken = [lib for lib in libraries if lib.state == "broken"]
    if errors and broken:
        ours = [e for e in errors if str(tmp_path) in (error_file(e) or "")]
        assert not ours, "clang errors in the translation itself:\n" + "\n".join(ours)
        pytest.xfail("; ".join(f"{lib.header} ({lib.path}) does not build against HIP {target.rocm}: {lib.errors[0]}"
                               for lib in broken))
    assert not errors, f"clang failed for {target.id}:\n" + "\n".join(errors)


def test_cli_roc_flag(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "blas.hip"
    assert cli.main(["--roc", "--rocm", "7.1", str(PROGRAMS_DIR / "blas_gemm_dot.cu"), "-o", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert "#include <rocblas/rocblas.h>" in text and "rocblas_sgemm(handle, rocblas_operation_none" in text
    assert cli.main(["--rocm", "7.1", str(PROGRAMS_DIR / "blas_gemm_dot.cu"), "-o", str(out)]) == 0
    assert "hipblasSgemm(" in out.read_text(encoding="utf-8")
