"""Toolchain discovery where users have their toolchains: CUDA toolkits (``$CUDA_HOME``,
``/usr/local/cuda*``, nvcc on PATH) and ROCm installs (``$ROCM_PATH``, ``/opt/rocm*``), each tool
reported with where it was found and why. The layouts are built from this machine's real nvcc,
clang-19 and ROCm 5.2 files (symlinked into a toolkit's or a ROCm install's folder structure)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cass_lsp import proc, toolchains
from cass_lsp.toolchains import amd, nvidia

KERNEL = "#include <hip/hip_runtime.h>\n__global__ void k(float* x) { x[threadIdx.x] *= 2.0f; }\n"


def _toolkit(base: Path, name: str, nvcc: Path) -> Path:
    home = base / name
    (home / "bin").mkdir(parents=True)
    (home / "bin" / "nvcc").symlink_to(nvcc)
    return home


@pytest.fixture
def real_nvcc() -> Path:
    bin_dir = nvidia.wheel_bin_dir()
    assert bin_dir is not None, "the NVIDIA wheels are not installed (scripts/setup.sh installs them)"
    return bin_dir / "nvcc"


@pytest.fixture
def no_wheel(real_nvcc: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No NVIDIA wheel, no nvcc on PATH, no CUDA_HOME: only the toolkits under the returned base."""
    monkeypatch.setattr(nvidia, "wheel_bin_dir", lambda: None)
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    for name in nvidia.CUDA_HOME_ENVS:
        monkeypatch.delenv(name, raising=False)
    base = tmp_path / "usr-local"
    base.mkdir()
    monkeypatch.setattr(nvidia, "TOOLKIT_BASE", base)
    return base


def test_toolkits_in_usr_local_cuda_then_newest_version(no_wheel: Path, real_nvcc: Path) -> None:
    assert nvidia.find() is None
    for version in ("12.4", "12.10", "12.9"):
        _toolkit(no_wheel, f"cuda-{version}", real_nvcc)
    found = nvidia.find()
    assert found is not None and found.nvcc == no_wheel / "cuda-12.10" / "bin" / "nvcc"
    assert found.origin == f"the CUDA toolkit in {no_wheel / 'cuda-12.10'}"
    (no_wheel / "cuda").symlink_to(no_wheel / "cuda-12.4")  # the toolkit installer's "current" link
    found = nvidia.find()
    assert found is not None and found.nvcc == no_wheel / "cuda" / "bin" / "nvcc"
    status = {s.name: s for s in toolchains.report()}["nvcc"]
    assert status.found and status.source == f"the CUDA toolkit in {no_wheel / 'cuda'}"


def test_cuda_home_then_path_before_usr_local(
    no_wheel: Path, real_nvcc: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _toolkit(no_wheel, "cuda", real_nvcc)
    on_path = _toolkit(tmp_path, "elsewhere", real_nvcc) / "bin"
    monkeypatch.setenv("PATH", f"{on_path}:/usr/bin:/bin")
    found = nvidia.find()
    assert found is not None and found.origin == f"nvcc on PATH ({on_path / 'nvcc'})"
    home = _toolkit(tmp_path, "opt-cuda", real_nvcc)
    monkeypatch.setenv("CUDA_HOME", str(home))
    found = nvidia.find()
    assert found is not None and found.nvcc == home / "bin" / "nvcc" and found.origin == f"$CUDA_HOME={home}"
    # a CUDA_HOME without nvcc is passed over, with nothing said against the next one
    monkeypatch.setenv("CUDA_HOME", str(tmp_path / "empty"))
    found = nvidia.find()
    assert found is not None and found.origin.startswith("nvcc on PATH")
    # it compiles: the version and the paths nvcc.profile finds come from the real toolkit files
    result = proc.run([*toolchains.nvcc_invocation("sm_90").argv, "--version"], timeout=60)
    assert result.ok and "release" in result.text()


@pytest.fixture
def rocm_only(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A machine whose only LLVM 19, HIP headers and device bitcode are a ROCm install's in /opt."""
    debian_bitcode = amd.bitcode_dir()
    assert debian_bitcode is not None and amd.hip_headers() is not None
    opt = tmp_path / "opt"
    root = opt / "rocm-6.4.0"
    (root / "llvm" / "bin").mkdir(parents=True)
    for tool in ("clang", "clang++", "ld.lld", "llvm-as", "llvm-objdump", "llvm-cxxfilt"):
        (root / "llvm" / "bin" / tool).symlink_to(Path(amd._DEBIAN_LLVM_BIN) / tool)
    (root / "include").mkdir()
    (root / "include" / "hip").symlink_to(amd.HIP_INCLUDE / "hip")
    (root / "share").mkdir()
    (root / "share" / "hip").symlink_to("/usr/share/hip")  # the version file clang reads
    (root / "amdgcn").mkdir()
    (root / "amdgcn" / "bitcode").symlink_to(debian_bitcode)
    (opt / "rocm-5.7.1").mkdir()  # older and without LLVM: never chosen
    monkeypatch.setattr(amd, "ROCM_BASE", opt)
    monkeypatch.setattr(amd, "_DEBIAN_LLVM_BIN", str(tmp_path / "no-llvm-19"))
    monkeypatch.setattr(amd, "HIP_INCLUDE", tmp_path / "no-include")
    monkeypatch.setattr(amd, "DEBIAN_LIB", tmp_path / "no-lib")
    for cache in ("_found", "_sources", "_majors"):
        monkeypatch.setattr(amd, cache, {})
    monkeypatch.setenv("PATH", "/nonexistent")
    monkeypatch.delenv(amd.ROCM_PATH_ENV, raising=False)
    monkeypatch.delenv(amd.LLVM_DIR_ENV, raising=False)
    monkeypatch.setenv("CASS_LSP_CACHE_DIR", str(tmp_path / "cache"))
    return root


def test_rocm_install_provides_llvm_headers_and_bitcode(rocm_only: Path, tmp_path: Path) -> None:
    assert amd.rocm_installs() == [rocm_only, rocm_only.parent / "rocm-5.7.1"]
    clang = amd.clang()
    assert clang == rocm_only / "llvm" / "bin" / "clang++"
    why = f"the ROCm install {rocm_only} (its LLVM is 19)"
    statuses = {s.name: s for s in toolchains.report()}
    assert statuses["clang++-19"].source == why and statuses["llvm-as-19"].source == why
    headers = statuses["HIP headers (ROCm 5.2)"]
    assert headers.found and headers.path == str(rocm_only / "include" / "hip")
    assert headers.source == f"the ROCm install {rocm_only} (Debian's libamdhip64-dev is not installed)"
    assert statuses["ROCm device libraries"].path == str(rocm_only / "amdgcn" / "bitcode")
    # the whole AMD path compiles through it
    source = tmp_path / "k.hip"
    source.write_text(KERNEL)
    hip = toolchains.hip_invocation("gfx1100", "5.2")
    assert hip.argv[0] == str(clang) and f"--rocm-path={rocm_only}" in hip.argv
    result = proc.run([*hip.argv, "--cuda-device-only", "-S", "-o", "-", str(source)], env=hip.env, timeout=120)
    assert result.ok, result.text()
    assert "v_lshlrev_b32" in result.text() or "global_load" in result.text()


def test_rocm_path_comes_first(rocm_only: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    other = tmp_path / "custom-rocm"
    (other / "llvm").mkdir(parents=True)
    (other / "llvm" / "bin").symlink_to(rocm_only / "llvm" / "bin")
    monkeypatch.setenv(amd.ROCM_PATH_ENV, str(other))
    assert amd.rocm_installs()[0] == other
    assert amd.clang() == other / "llvm" / "bin" / "clang++"
    assert amd.find_tool_source(other / "llvm" / "bin" / "clang++") == f"the ROCm install {other} (its LLVM is 19)"


def test_no_llvm_19_anywhere_names_the_install(rocm_only: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(amd, "ROCM_BASE", rocm_only / "nowhere")
    assert amd.clang() is None
    status = {s.name: s for s in toolchains.report()}["clang++-19"]
    assert not status.found and status.source is None and "clang-19" in (status.hint or "")
