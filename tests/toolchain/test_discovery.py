"""Toolchain discovery where users have their toolchains: CUDA toolkits (``$CUDA_HOME``,
``/usr/local/cuda*``, nvcc on PATH), each tool reported with where it was found and why. The layouts
are built from this machine's real nvcc (symlinked into a toolkit's folder structure). The LLVMs and
ROCm installs are tested in test_llvm_discovery.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from cass_lsp import toolchains
from cass_lsp.core import proc
from cass_lsp.toolchains import nvidia


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
