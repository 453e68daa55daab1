"""build(): the compile command, compile errors on the user's lines, availability and cache keys."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from cass_lsp.cpu import available, build, include_dir, toolchain_version
from cass_lsp.cpu.build import is_hip
from tests.cpu.conftest import need_gxx

KERNELS = Path(__file__).parent / "kernels"


def test_compile_error_points_at_the_user_line(tmp_path: Path) -> None:
    need_gxx()
    source = KERNELS / "compile_error.cu"
    result = build(source, source.read_text(), tmp_path / "prog")
    assert not result.ok and result.exe == ""
    assert f"{source}:9:" in result.log  # `int x = undeclared_variable + 1;` (1-based line 9)
    assert "undeclared_variable" in result.log


def test_command_shape(tmp_path: Path) -> None:
    need_gxx()
    source = tmp_path / "empty.cu"
    result = build(source, "int main() { return 0; }\n", tmp_path / "out", warp_size=64)
    assert result.ok, result.log
    assert Path(result.exe).is_file()
    assert result.command[:4] == ["g++", "-std=c++17", "-O2", "-pthread"]
    assert "-DCASS_CPU_WARP_SIZE=64" in result.command and "-D__CUDACC__=1" in result.command
    assert str(include_dir()) in result.command and str(tmp_path) in result.command
    prepared = Path(result.exe + ".cpu.cpp").read_text()
    assert prepared.startswith(f'#line 1 "{source}"\n')


def test_hip_detection() -> None:
    assert is_hip(Path("a.hip"), "")
    assert is_hip(Path("a.cpp"), "#include <hip/hip_runtime.h>\n")
    assert not is_hip(Path("a.cu"), "#include <cuda_runtime.h>\n")


def test_invalid_warp_size(tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        build(tmp_path / "a.cu", "", tmp_path / "a", warp_size=16)


def test_cancelled_build(tmp_path: Path) -> None:
    cancel = threading.Event()
    cancel.set()
    result = build(tmp_path / "a.cu", "int main() {}\n", tmp_path / "a", cancel=cancel)
    assert not result.ok and "cancelled" in result.log


def test_available_and_version() -> None:
    ok, detail = available()
    assert isinstance(ok, bool) and detail
    assert available("no-such-compiler-xyz")[0] is False
    assert toolchain_version() == toolchain_version()
    assert "cass-cpu" in toolchain_version()
