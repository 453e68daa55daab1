"""The issue's "done when", run the way a user runs it.

``python -m cass_lsp translate attention_scores_cublas.cu -o X.hip --arch gfx1100 --rocm R`` (the
CUDA file with warp shuffles, shared memory and cuBLAS calls), then clang-19 ``-c`` of ``X.hip``
for gfx1100 with the ROCm 5.2 and the ROCm 7.1 headers (device code object and host object: a
single fat ``-c`` would only add clang-offload-bundler packing the two); and for gfx942 the
translator reports the 32-lane assumptions.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import msgspec
import pytest

from cass_lsp import toolchains
from cass_lsp.core import proc
from cass_lsp.toolchains import amd, hiplibs
from tests.corpus.manifest import PROGRAMS_DIR, ROCM_VERSIONS, WAVE32_ARCH, WAVE64_ARCH

SOURCE = PROGRAMS_DIR / "attention_scores_cublas.cu"
KERNEL = "_Z15softmax_columnsPfif"  # softmax_columns(float*, int, float)
CLANG_TIMEOUT_S = 300.0
# Source lines that assume a 32-lane warp: the two xor-shuffle loops starting at offset 16 and the
# "threadIdx.x & 31" lane index.
WARP32_LINES = {28, 34, 43}


class Finding(msgspec.Struct):
    code: str
    line: int


class Report(msgspec.Struct):
    findings: list[Finding]


class Summary(msgspec.Struct):
    arch: str
    rocm: str
    unsupported: int
    reports: list[Report]


def translate(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cass_lsp", "translate", str(SOURCE), *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def compile_hip(rocm: str, source: Path, *args: str | Path) -> proc.ProcResult:
    try:
        hip = toolchains.hip_invocation(WAVE32_ARCH, rocm)
    except toolchains.ToolchainMissing as exc:
        pytest.fail(str(exc))
    libraries = hiplibs.include_dir(toolchains.rocm_profile(rocm))
    assert libraries is not None, f"HIP library headers not fetched: {hiplibs.SETUP_HINT}"
    assert str(libraries) in hip.argv
    return proc.run([*hip.argv, "-Wno-unused-result", *args, source], env=hip.env, cwd=source.parent,
                    timeout=CLANG_TIMEOUT_S)


@pytest.mark.parametrize("rocm", ROCM_VERSIONS, ids=lambda r: f"rocm{r}")
def test_translate_then_compile_for_gfx1100(rocm: str, tmp_path: Path) -> None:
    hip_file = tmp_path / "X.hip"
    done = translate("-o", str(hip_file), "--arch", WAVE32_ARCH, "--rocm", rocm)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"ROCm {rocm}, {WAVE32_ARCH}" in done.stderr
    assert "#include <hipblas/hipblas.h>" in hip_file.read_text(encoding="utf-8")

    device = tmp_path / "X-gfx1100.o"
    result = compile_hip(rocm, hip_file, "--cuda-device-only", "--no-gpu-bundle-output", "-O3", "-c", "-o", device)
    assert result.ok, result.text()
    objdump = amd.find_tool("llvm-objdump")
    assert objdump is not None, amd.LLVM_HINT
    listing = proc.run([objdump, "-t", "--mcpu=gfx1100", device], timeout=60)
    assert listing.ok, listing.text()
    assert "elf64-amdgpu" in listing.text() and KERNEL in listing.text()

    host = tmp_path / "X-host.o"
    result = compile_hip(rocm, hip_file, "--cuda-host-only", "-c", "-o", host)
    assert result.ok, result.text()
    assert host.stat().st_size > 0


@pytest.mark.parametrize("rocm", ROCM_VERSIONS, ids=lambda r: f"rocm{r}")
def test_translate_for_gfx942_reports_warp_size_assumptions(rocm: str, tmp_path: Path) -> None:
    done = translate("-o", str(tmp_path / "X.hip"), "--arch", WAVE64_ARCH, "--rocm", rocm, "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    summary = msgspec.json.decode(done.stdout, type=Summary)
    assert (summary.arch, summary.rocm, summary.unsupported) == (WAVE64_ARCH, rocm, 0)
    lines = {f.line for r in summary.reports for f in r.findings if f.code == "warp-size-assumption"}
    assert lines >= WARP32_LINES, f"warp-size-assumption on lines {sorted(lines)}"
