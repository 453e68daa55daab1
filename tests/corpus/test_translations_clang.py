"""Every corpus program, translated by the rule engine, compiles with the real clang-19 for AMD.

Targets: ROCm 5.2 (Debian's HIP headers) and ROCm 7.1 (HIP headers from the triton wheels), each
for gfx1100 (wave32) and gfx942 (wave64). A translation must:

- report the findings the manifest expects for that target, and no error the manifest does not expect;
- leave no CUDA API name behind, except names an error finding owns;
- include the HIP library headers ROCm installs (``hipblas/hipblas.h``, ...);
- compile (host and device objects), or fail exactly as the manifest's ``fails`` entry says.

HIP library headers are probed with clang for each ROCm version. hipBLAS, hipFFT, hipCUB and
rocThrust come from Debian 13 (``cass-lsp setup --only hip-libs``); a library
missing for any other reason than its profile leaving it out (hipCUB and rocThrust under ROCm 7.1:
``hiplibs.NOT_IN_PROFILE``) fails the test with that command. When a library is left out, does not
build against that HIP (Debian's rocRAND 5.3 with HIP 7.1), or is older than the target (hipSPARSE
5.3 or hipBLAS 5.5 under ROCm 7.1), the test proves that this alone stops clang and reports the case
as xfail with the reason, so the gap shows in every run's summary.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Iterable
from pathlib import Path

import pytest
from _pytest.mark import ParameterSet

from cass_lsp.toolchains import hiplibs
from cass_lsp.translate import TargetProfile, TranslateOptions, TranslationResult, translate
from tests.corpus.amd import (
    Library,
    Target,
    error_file,
    full_compile,
    left_out,
    missing_header,
    probe,
    syntax_check,
)
from tests.corpus.manifest import (
    PROGRAMS_DIR,
    ROCM_VERSIONS,
    WAVE32_ARCH,
    WAVE64_ARCH,
    Program,
    programs,
)

WARP_SIZE = "warp-size-assumption"

# The HIP header each CUDA library header must become. ROCm installs its library headers as
# <lib>/<lib>.h (Debian's hipsparse/hiprand, and the include names ROCm's own Python bindings use).
_LIBRARY_HEADERS = {
    "cublas_v2.h": "hipblas/hipblas.h",
    "cusparse.h": "hipsparse/hipsparse.h",
    "cufft.h": "hipfft/hipfft.h",
    "curand.h": "hiprand/hiprand.h",
    "curand_kernel.h": "hiprand/hiprand_kernel.h",
    "cub/cub.cuh": "hipcub/hipcub.hpp",
}
_LIBRARY_PREFIXES = ("hipblas", "hipsparse", "hipfft", "hiprand", "rocrand", "hipcub")
_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"]([^>"]+)[>"]', re.MULTILINE)
_DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w+)", re.MULTILINE)
_UNDECLARED = re.compile(rf"use of undeclared identifier '((?:{'|'.join(_LIBRARY_PREFIXES)})\w*)'")
# Comments, string and character literals, and #include lines: no API names live there.
_NOT_CODE = re.compile(
    r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|^[ \t]*#[ \t]*include[^\n]*',
    re.DOTALL | re.MULTILINE,
)
# What CUDA API names look like: runtime/driver/library prefixes, CUDA enums and macros, cub::.
# snake_case names after "cuda_" are the programs' own (cuda_check), never CUDA's.
_CUDA_NAME = re.compile(
    r"\b(?:cuda[A-Z]\w*|cu[A-Z]\w*|CU[A-Za-z_]\w*|(?:cublas|cusparse|cufft|curand)\w*"
    r"|(?:CUBLAS|CUSPARSE|CUFFT|CURAND|CUDART)_\w*|__CUDA_ARCH__|__CUDACC__|cub::)"
)

TARGETS = tuple(Target(rocm, arch) for rocm in ROCM_VERSIONS for arch in (WAVE32_ARCH, WAVE64_ARCH))


def _params(pairs: Iterable[tuple[Program, Target]]) -> list[ParameterSet]:
    return [pytest.param(p, t, id=f"{p.name}-{t.id}") for p, t in pairs]


CASES = _params((p, t) for p in programs() for t in TARGETS)
WAVE32_CASES = _params((p, t) for p in programs() for t in TARGETS if not t.wave64)
LIBRARY_CASES = _params((p, t) for p in programs() for t in TARGETS if not t.wave64 and p.libs)


@dataclasses.dataclass(frozen=True)
class Translated:
    main: TranslationResult
    headers: dict[str, TranslationResult]

    def all_results(self) -> list[TranslationResult]:
        return [self.main, *self.headers.values()]


@functools.cache
def _translated(file: str, headers: tuple[str, ...], target: Target) -> Translated:
    profile = TargetProfile(arch=target.arch, rocm=target.rocm)

    def one(name: str) -> TranslationResult:
        return translate((PROGRAMS_DIR / name).read_text(encoding="utf-8"), profile, TranslateOptions())

    return Translated(one(file), {h: one(h) for h in headers})


def translated(program: Program, target: Target) -> Translated:
    return _translated(program.file, tuple(program.headers), target)


def _write(program: Program, result: Translated, into: Path) -> Path:
    """The translation as a compilable tree: ``<stem>.hip`` plus its headers under their own names."""
    main = into / f"{program.name}.hip"
    main.write_text(result.main.text, encoding="utf-8")
    for name, header in result.headers.items():
        (into / name).write_text(header.text, encoding="utf-8")
    return main


def hip_library_headers(program: Program) -> set[str]:
    """The HIP library headers a translation must include, from the original's CUDA includes."""
    wanted: set[str] = set()
    for name in [program.file, *program.headers]:
        for cuda in _INCLUDE.findall((PROGRAMS_DIR / name).read_text(encoding="utf-8")):
            if cuda in _LIBRARY_HEADERS:
                wanted.add(_LIBRARY_HEADERS[cuda])
            elif cuda.startswith("thrust/"):
                wanted.add(cuda)  # rocThrust keeps thrust's header names
    return wanted


@pytest.mark.parametrize(("program", "target"), CASES)
def test_findings(program: Program, target: Target) -> None:
    findings = [f for r in translated(program, target).all_results() for f in r.findings]
    codes = {f.code for f in findings}
    expected = program.expect.codes(rocm=target.rocm, arch=target.arch)
    assert expected <= codes, f"missing findings {sorted(expected - codes)}; got {sorted(codes)}"

    errors = [f for f in findings if f.severity == "error" and f.code not in program.expect.every_code()]
    assert not errors, "unexpected error findings:\n" + "\n".join(f"{f.code}: {f.message}" for f in errors)

    if not target.wave64 or WARP_SIZE not in program.expect.gfx942:
        wrong = [f.message for f in findings if f.code == WARP_SIZE]
        assert not wrong, f"{WARP_SIZE} on a program/target without one: {wrong}"


@pytest.mark.parametrize(("program", "target"), WAVE32_CASES)
def test_no_cuda_names_left(program: Program, target: Target) -> None:
    result = translated(program, target)
    owned = {f.name for r in result.all_results() for f in r.findings if f.severity == "error" and f.name}
    files = [program.file, *program.headers]
    user_macros = {m for name in files for m in _DEFINE.findall((PROGRAMS_DIR / name).read_text(encoding="utf-8"))}
    left: list[str] = []
    for name, text in [(program.file, result.main.text), *((h, r.text) for h, r in result.headers.items())]:
        code = _NOT_CODE.sub(" ", text)
        for match in _CUDA_NAME.finditer(code):
            word = match.group(0)
            if word not in user_macros and word not in owned:
                line = code.count("\n", 0, match.start()) + 1
                left.append(f"{name}:{line}: {word}")
    assert not left, "CUDA names left in the translation:\n" + "\n".join(left)


@pytest.mark.parametrize(("program", "target"), LIBRARY_CASES)
def test_library_headers_mapped(program: Program, target: Target) -> None:
    result = translated(program, target)
    included = {i for r in result.all_results() for i in _INCLUDE.findall(r.text)}
    wanted = hip_library_headers(program)
    assert wanted, f"{program.file} lists libs {program.libs} but includes none of their headers"
    assert wanted <= included, f"missing HIP library includes {sorted(wanted - included)}; has {sorted(included)}"


def _library_gap(target: Target, libraries: list[Library], errors: list[str], workdir: Path) -> str | None:
    """Why clang's ``errors`` are the installed HIP libraries' fault and not the translation's."""
    broken = [lib for lib in libraries if lib.state == "broken"]
    if broken and not any(str(workdir) in (error_file(e) or "") for e in errors):
        return "; ".join(f"{lib.header} ({lib.path}) does not build against HIP {target.rocm}: {lib.errors[0]}"
                         for lib in broken)
    older = [lib for lib in libraries if lib.older_than(target)]
    names = [m.group(1) for m in map(_UNDECLARED.search, errors) if m]
    if older and len(names) == len(errors):
        headers = ", ".join(f"{lib.header} of ROCm {lib.rocm} ({lib.path})" for lib in older)
        return (f"only older library headers are installed ({headers}); "
                f"newer names the ROCm {target.rocm} translation uses: {', '.join(sorted(set(names)))}")
    return None


@pytest.mark.parametrize(("program", "target"), CASES)
def test_translation_compiles(program: Program, target: Target, tmp_path: Path) -> None:
    source = _write(program, translated(program, target), tmp_path)
    libraries = [probe(target.rocm, header) for header in sorted(hip_library_headers(program))]

    missing = [lib.header for lib in libraries if lib.state == "missing"]
    unexplained = [header for header in missing if left_out(target.rocm, header) is None]
    assert not unexplained, (f"HIP library headers missing for ROCm {target.rocm}: {', '.join(unexplained)}; "
                             f"fetch them with: {hiplibs.SETUP_HINT}")
    if missing:
        errors = syntax_check(target, source, tmp_path)
        stops = {missing_header(e) for e in errors}
        assert errors and stops <= set(missing), (
            "expected clang to stop only at the missing HIP library headers " + ", ".join(missing)
            + ":\n" + "\n".join(errors))
        why = sorted({f"{header.split('/')[0]}: {left_out(target.rocm, header)}" for header in missing})
        pytest.xfail(f"left out of the ROCm {target.rocm} profile ({'; '.join(why)}); "
                     "translation checked up to them")

    errors = full_compile(target, source, tmp_path)
    failure = program.failure_for(target.id)
    if failure is not None:
        assert errors, f"{target.id} compiled, yet the manifest says it cannot: {failure.note}"
        assert failure.explains(errors), (
            f"clang errors other than the expected /{failure.errors}/:\n" + "\n".join(errors))
        if failure.because == "toolchain":
            pytest.xfail(failure.note)
        return
    if errors:
        gap = _library_gap(target, libraries, errors, tmp_path)
        if gap is not None:
            pytest.xfail(gap)
    assert not errors, f"clang failed for {target.id}:\n" + "\n".join(errors)


# The "done when" file: shuffles, shared memory and cuBLAS calls in one program.
_DONE_WHEN = "attention_scores_cublas.cu"
_WARP_SYNC_CALL = re.compile(r"\b(__shfl(?:_up|_down|_xor)?_sync|__ballot_sync|__any_sync|__all_sync)\s*\(\s*([^,()]+)")
_WIDE_MASK = re.compile(r"^(?:0[xX][fF]{16}|~0)[uU]?(?:ll|LL)[uU]?$|unsigned long long|uint64_t|__activemask\(\)")
_HIPBLAS_NAMES = ("hipblasHandle_t", "hipblasCreate", "hipblasSgemm", "hipblasDestroy", "HIPBLAS_OP_N",
                  "HIPBLAS_OP_T", "HIPBLAS_STATUS_SUCCESS")


def _done_when_program() -> Program:
    return next(p for p in programs() if p.file == _DONE_WHEN)


@pytest.mark.parametrize("rocm", ROCM_VERSIONS, ids=lambda r: f"rocm{r}")
def test_done_when_shuffles_smem_cublas_for_gfx1100(rocm: str) -> None:
    """hipBLAS names and headers, and warp intrinsics in the form each ROCm accepts: HIP 5.2 has no
    *_sync intrinsics at all, HIP 7.1 requires 64-bit lane masks (a 32-bit one fails a static_assert).
    That it compiles is test_translation_compiles[attention_scores_cublas-rocm*-gfx1100] (in-process)
    and test_done_when_cli.py (through ``cass-lsp translate`` and clang-19 ``-c``)."""
    text = translated(_done_when_program(), Target(rocm, WAVE32_ARCH)).main.text
    assert "#include <hipblas/hipblas.h>" in text
    missing = [name for name in _HIPBLAS_NAMES if not re.search(rf"\b{name}\b", text)]
    assert not missing, f"hipBLAS names missing from the translation: {missing}"
    assert "__shared__" in text
    calls = _WARP_SYNC_CALL.findall(_NOT_CODE.sub(" ", text))
    if rocm == "5.2":
        assert not calls, f"HIP 5.2 has no warp-sync intrinsics, yet the translation calls {calls}"
        assert re.search(r"\b__shfl_xor\s*\(", text), "the xor shuffles disappeared"
    else:
        assert calls, "the xor shuffles disappeared"
        narrow = [(name, mask) for name, mask in calls if not _WIDE_MASK.search(mask.strip())]
        assert not narrow, f"HIP 7.1 needs 64-bit lane masks: {narrow}"


@pytest.mark.parametrize("rocm", ROCM_VERSIONS, ids=lambda r: f"rocm{r}")
def test_done_when_warp_size_findings_for_gfx942(rocm: str) -> None:
    result = translated(_done_when_program(), Target(rocm, WAVE64_ARCH)).main
    warp = [f for f in result.findings if f.code == WARP_SIZE]
    assert warp, f"no {WARP_SIZE} finding for gfx942; findings: {[f.code for f in result.findings]}"
    source = (PROGRAMS_DIR / _DONE_WHEN).read_bytes()
    flagged = {source[f.start_byte:f.end_byte].decode() for f in warp}
    # softmax_columns' lane index (threadIdx.x & 31) is what breaks first on a 64-wide wave.
    assert any("& 31" in span for span in flagged), flagged
