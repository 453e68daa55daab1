"""What building a port needs, for doctor and translate's report (cass_lsp.buildfiles.tools): LLVM's
OpenMP for the clang Debian's hipcc runs, and the libraries a port links, named by their package where
they are missing."""

from __future__ import annotations

from pathlib import Path

import pytest

from cass_lsp.buildfiles import tools


def _hipcc(folder: Path, clang: str) -> Path:
    """A hipcc wrapper as Debian ships it: a script running hipcc.pl, which names its clang."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "hipcc").write_text('#!/usr/bin/perl\nexec("perl", "hipcc.pl", @ARGV);\n')
    (folder / "hipcc.pl").write_text(f'$HIPCC="$HIP_CLANG_PATH/{clang}" . $execExtension;\n')
    return folder / "hipcc"


def test_the_package_follows_the_llvm_hipcc_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    hipcc = _hipcc(tmp_path / "bin", "clang++-15")
    monkeypatch.setattr(tools, "ROCM_OPENMP", str(tmp_path / "no-rocm" / "llvm" / "lib" / "libomp.so"))
    monkeypatch.setattr(tools.shutil, "which", lambda name: str(hipcc) if name == "hipcc" else None)
    monkeypatch.setattr(tools.os.path, "exists", lambda path: False)
    status = tools.openmp()
    assert not status.found and status.hint == "apt-get install libomp-15-dev"
    monkeypatch.setattr(tools.os.path, "exists", lambda path: path == "/usr/lib/llvm-15/lib/libomp.so")
    status = tools.openmp()
    assert status.found and status.path == "/usr/lib/llvm-15/lib/libomp.so" and status.version == "for clang-15"


def test_without_hipcc_the_toolchain_files_clang_decides(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tools, "ROCM_OPENMP", str(tmp_path / "no-rocm" / "llvm" / "lib" / "libomp.so"))
    monkeypatch.setattr(tools.shutil, "which", lambda name: "/usr/bin/clang++-17" if name == "clang++-17" else None)
    monkeypatch.setattr(tools.os.path, "exists", lambda path: False)
    assert tools.openmp().hint == "apt-get install libomp-17-dev"
    monkeypatch.setattr(tools.shutil, "which", lambda name: None)
    assert "hipcc" in (tools.openmp().hint or "")


def test_the_libraries_a_port_links_are_named_where_missing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """llm.c's dev/cuda port stopped on hipblas/hipblas.h with nothing saying Debian 12 has no hipBLAS."""
    include, lib = tmp_path / "include", tmp_path / "lib"
    (include / "hipsparse").mkdir(parents=True)
    (include / "hipsparse" / "hipsparse.h").write_text("")
    lib.mkdir()
    (lib / "libhipsparse.so").write_text("")
    monkeypatch.setattr(tools, "_SYSTEM_INCLUDES", (str(include),))
    monkeypatch.setattr(tools, "_LIBRARY_FOLDERS", (str(lib),))
    hint = tools.missing_libraries_hint(frozenset({"blas", "sparse", "nvtx", "thrust"}), "hip")
    assert hint is not None and "hipSPARSE" not in hint
    assert "hipBLAS (hipblas/hipblas.h, -lhipblas): Debian 12 packages none" in hint and "libhipblas-dev" in hint
    assert "roctx (roctracer)" in hint and "roctracer package" in hint
    assert "rocBLAS" in (tools.missing_libraries_hint(frozenset({"blas"}), "roc") or "")
    assert tools.missing_libraries_hint(frozenset({"sparse", "runtime"}), "hip") is None
    rows = {row.name: row for row in tools.status() if "ported" in row.name}
    assert rows["build: hipSPARSE (ported cuSPARSE code)"].found
    missing = rows["build: hipBLAS (ported cuBLAS code)"]
    assert not missing.found and "libhipblas-dev" in (missing.hint or "")
