"""Real-code shapes the rules once left broken, each in a program of our own under realcode/.

Forward translations compile with clang-19 against the ROCm they target; reverse translations
with the real nvcc. Compatibility helpers (compat.py) and guarded collisions (collisions.py)
are what make them compile.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cass_lsp import toolchains
from cass_lsp.core import proc
from cass_lsp.translate import TargetProfile, translate

HERE = Path(__file__).parent / "realcode"
_TIMEOUT_S = 300.0


def _hip_compiles(tmp_path: Path, text: str, profile: TargetProfile) -> proc.ProcResult:
    compiler = toolchains.hip_invocation(profile.arch, profile.resolved_rocm())
    source = tmp_path / "t.hip"
    source.write_text(text, encoding="utf-8")
    return proc.run([*compiler.argv, "-fsyntax-only", "-w", str(source)], timeout=_TIMEOUT_S, env=compiler.env)


def _nvcc_compiles(tmp_path: Path, text: str) -> proc.ProcResult:
    nvcc = toolchains.nvcc_invocation("sm_90")
    source = tmp_path / "t.cu"
    source.write_text(text, encoding="utf-8")
    return proc.run([*nvcc.argv, "-c", "-o", str(tmp_path / "t.o"), str(source)], timeout=_TIMEOUT_S, env=nvcc.env)


def _errors(findings: list) -> list[str]:  # type: ignore[type-arg]
    return [f"{f.code}: {f.message}" for f in findings if f.severity == "error"]


@pytest.mark.parametrize("rocm", ["5.2", "7.1"])
def test_collisions_and_cuda_only_conversions_compile_for_hip(tmp_path: Path, rocm: str) -> None:
    program = (HERE / "particles_collisions.cu").read_text()
    profile = TargetProfile("gfx1100", rocm)
    result = translate(program, profile)
    assert _errors(result.findings) == []
    assert "#if !defined(__HIP_PLATFORM_AMD__)  // cass: HIP defines atomicMin(float*, float)" in result.text
    assert "#if !defined(__HIP_PLATFORM_AMD__)  // cass: HIP defines operator-=(float4&, float4)" in result.text
    assert "float4 operator*(float4 a, float s)" in result.text.split("#endif")[2]  # no collision: not guarded
    assert "dim3 threads = dim3(256, 1, 1);" in result.text
    assert "HIP_SYMBOL(damping)" in result.text
    assert [f.code for f in result.findings if f.severity == "info"].count("nvcc-ism") == 3
    compiled = _hip_compiles(tmp_path, result.text, profile)
    assert compiled.ok, compiled.text()


def test_the_users_definitions_still_serve_nvidia_after_a_round_trip(tmp_path: Path) -> None:
    """CUDA has no float atomicMin nor float4 operators: after HIP and back, nvcc still needs and
    sees the user's definitions (the guard is false there)."""
    program = (HERE / "particles_collisions.cu").read_text()
    there = translate(program, TargetProfile("gfx1100", "7.1"))
    back = translate(there.text, reverse=True)
    assert "__device__ float atomicMin(float* addr, float val)" in back.text
    compiled = _nvcc_compiles(tmp_path, back.text)
    assert compiled.ok, compiled.text()
    unguarded = back.text.replace("#if !defined(__HIP_PLATFORM_AMD__)", "#if 0")
    assert not _nvcc_compiles(tmp_path, unguarded).ok  # the definitions are really needed there


def test_a_missing_error_string_function_gets_a_helper_on_rocm52(tmp_path: Path) -> None:
    program = (HERE / "sparse_check.cu").read_text()
    profile = TargetProfile("gfx1100", "5.2")
    result = translate(program, profile)
    assert _errors(result.findings) == []
    assert result.text.count("#ifndef CASS_HIPSPARSE_ERROR_STRINGS") == 1
    assert "cass_hipsparseGetErrorString(s_), cass_hipsparseGetErrorName(s_)" in result.text
    # After the includes that declare hipsparseStatus_t, before the macro that uses it.
    assert result.text.index("<hipsparse/hipsparse.h>") < result.text.index("CASS_HIPSPARSE") < result.text.index(
        "#define CHECK_CUSPARSE")
    compiled = _hip_compiles(tmp_path, result.text, profile)
    assert compiled.ok, compiled.text()


def test_rocm6_uses_hipsparse_own_error_strings() -> None:
    result = translate((HERE / "sparse_check.cu").read_text(), TargetProfile("gfx1100", "6.2"))
    assert "hipsparseGetErrorString(s_), hipsparseGetErrorName(s_)" in result.text
    assert "CASS_" not in result.text


def test_real_hip_code_compiles_with_nvcc_after_reverse_translation(tmp_path: Path) -> None:
    program = (HERE / "reduce_max.hip").read_text()
    result = translate(program, TargetProfile(cuda="13.0"), reverse=True)
    text = result.text
    assert "extern __shared__ float smem[];" in text
    assert "__shfl_down_sync(0xffffffff, v, o)" in text and "__shfl_sync(0xffffffff, v, 0)" in text
    assert "cudaMallocHost((void**)&h" in text
    assert "__nv_atomic_load_n(cass_unconst(" in text and "__NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_SYSTEM" in text
    assert "cass_device_attribute(cudaDevAttrClockRate, 0)" in text
    assert "#ifndef CASS_ATOMIC_MINMAX_FP" in text
    assert [f.code for f in result.findings if f.code == "parse-error"] == []
    assert _errors(result.findings) == []
    compiled = _nvcc_compiles(tmp_path, text)
    assert compiled.ok, compiled.text()


def test_the_reverse_direction_follows_the_target_cuda_version() -> None:
    program = (HERE / "reduce_max.hip").read_text()
    old = translate(program, TargetProfile(cuda="12.4"), reverse=True)
    assert "prop.clockRate" in old.text and "cass_device_attribute" not in old.text
    assert [f.code for f in old.findings if f.severity == "error"] == ["unsupported-api"]  # __atomic_load_n
    assert "__atomic_load_n(" in old.text


def test_atomic_min_max_on_integers_needs_no_helper() -> None:
    src = "__global__ void k(int* m, int v) { atomicMax(m, v); }\n"
    assert "CASS_" not in translate(src, reverse=True).text
