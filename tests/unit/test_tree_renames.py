"""``cass-lsp translate DIR --out-dir`` renames .cu files to .hip, and every reference in the tree
follows: includes, the Makefile, shell scripts; ``--in-place`` renames nothing and changes none."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cass_lsp.cli.translate import main

_FILES = {
    "Makefile": "NVCC ?= nvcc\nlud: main.cu kernels/lud_kernels.cu\n\t$(NVCC) -O3 main.cu -o lud\n",
    "main.cu": '#include <cstdio>\n#include "kernels/lud_kernels.cu"\n'
               "int main() { lud<<<1, 16>>>(nullptr); cudaDeviceSynchronize(); return 0; }\n",
    "kernels/lud_kernels.cu": '#include "lud_device.cu"\n__global__ void lud(float* m) { if (m) m[0] = f(); }\n',
    "kernels/lud_device.cu": "__device__ float f() { return 1.0f; }\n",
    "run.sh": "#!/bin/sh\ntest -f main.cu && test -f kernels/lud_kernels.cu && make && ./lud 2048\n",
}


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "lud"
    for name, text in _FILES.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    (root / "run.sh").chmod(0o755)
    return root


def test_out_dir_renames_every_reference(tree: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "port"
    assert main([str(tree), "--out-dir", str(out), "--arch", "gfx1030", "--rocm", "5.2"]) == 0
    assert '#include "kernels/lud_kernels.hip"\n' in (out / "main.hip").read_text()
    # after the runtime include the tree translation puts first in every .cu unit
    assert (out / "kernels" / "lud_kernels.hip").read_text().startswith(
        '#include <hip/hip_runtime.h>\n#include "lud_device.hip"\n')
    assert "lud: main.hip kernels/lud_kernels.hip\n\t$(NVCC) -O3 main.hip -o lud\n" in (out / "Makefile").read_text()
    script = out / "run.sh"
    assert script.read_text() == "#!/bin/sh\ntest -f main.hip && test -f kernels/lud_kernels.hip && make && ./lud 2048\n"
    assert os.access(script, os.X_OK)
    assert "includes 2" in capsys.readouterr().err  # counted in the summary
    for name in ("main.hip", "kernels/lud_kernels.hip", "kernels/lud_device.hip"):
        assert (out / name).is_file()


def test_in_place_renames_nothing(tree: Path) -> None:
    assert main([str(tree), "--in-place", "--arch", "gfx1030", "--rocm", "5.2"]) == 0
    assert '#include "kernels/lud_kernels.cu"\n' in (tree / "main.cu").read_text()
    assert "lud: main.cu kernels/lud_kernels.cu\n" in (tree / "Makefile").read_text()
    assert (tree / "run.sh").read_text() == _FILES["run.sh"]
    assert not list(tree.rglob("*.hip"))


def test_reverse_out_dir_renames_back(tmp_path: Path) -> None:
    hip = tmp_path / "hip"
    hip.mkdir()
    (hip / "main.hip").write_text('#include <hip/hip_runtime.h>\n#include "kernels.hip"\nint main() { return 0; }\n')
    (hip / "kernels.hip").write_text("__global__ void k() {}\n")
    out = tmp_path / "cuda"
    assert main([str(hip), "--reverse", "--out-dir", str(out)]) == 0
    assert '#include "kernels.cu"\n' in (out / "main.cu").read_text()
