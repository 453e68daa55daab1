"""A build file a porter's rule fails on is kept as written in the port, with an error on it, and
the translation of the tree goes on (cass_lsp.services.tree)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cass_lsp.buildfiles import files
from cass_lsp.buildfiles.porting import Result, Settings
from cass_lsp.cli.translate import main


def test_a_build_file_the_porter_fails_on_is_kept_and_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    tree = tmp_path / "app"
    tree.mkdir()
    makefile = "NVCC := $(shell which nvcc)\napp: main.cu\n\t$(NVCC) main.cu -o app\n"
    (tree / "Makefile").write_text(makefile)
    (tree / "CMakeLists.txt").write_text("project(app LANGUAGES CXX CUDA)\nadd_executable(app main.cu)\n")
    (tree / "main.cu").write_text("__global__ void k() {}\nint main() { k<<<1, 1>>>(); }\n")
    real = files.translate

    def translate(path: str, text: str, settings: Settings) -> Result:
        if files.kind(path) == "make":
            raise StopIteration
        return real(path, text, settings)

    monkeypatch.setattr(files, "translate", translate)
    out = tmp_path / "port"
    assert main([str(tree), "--out-dir", str(out), "--arch", "gfx1030", "--rocm", "5.2"]) == 0
    assert (out / "Makefile").read_text() == makefile
    assert "add_executable(app main.hip)" in (out / "CMakeLists.txt").read_text()
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert f"{tree / 'Makefile'}:1:1: error: this build file could not be ported (StopIteration: ); kept as written" in err
    assert main([str(tree), "--out-dir", str(out), "--arch", "gfx1030", "--strict"]) == 1
