"""A repository's tree is untrusted: a FIFO or a huge file named like a header must neither block
nor be read whole by `cass-lsp translate` (the unit itself, or a header read for its macros)."""

from __future__ import annotations

import os
from pathlib import Path

from cass_lsp.core import targets
from cass_lsp.services import translation
from cass_lsp.services.outputs import Unit
from cass_lsp.translate.rules import Settings


def _tree(tmp_path: Path) -> Path:
    os.mkfifo(tmp_path / "fifo.h")
    with open(tmp_path / "big.h", "wb") as f:
        f.truncate(6 << 20)
    (tmp_path / "main.cu").write_text('#include "fifo.h"\n#include "big.h"\n__global__ void k() {}\n'
                                      "int main() { k<<<1, 1>>>(); return cudaDeviceSynchronize(); }\n")
    return tmp_path


def test_a_fifo_in_the_tree_is_left_out_with_an_error_and_the_rest_translates(tmp_path: Path) -> None:
    tree = _tree(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    units = [Unit(str(tree / name), str(out / target), False)
             for name, target in (("fifo.h", "fifo.h"), ("big.h", "big.h"), ("main.cu", "main.hip"))]
    fifo, _, main = translation.translate_units(units, Settings(targets.resolve("gfx1100", "5.2", "13.0")), jobs=1)
    assert fifo.error is not None and "not a regular file" in fifo.error
    assert main.error is None and "hipDeviceSynchronize()" in (out / "main.hip").read_text()


def test_the_macros_of_a_fifo_or_an_oversized_header_are_not_read(tmp_path: Path) -> None:
    tree = _tree(tmp_path)
    assert translation._read(str(tree / "fifo.h")) is None
    assert translation._read(str(tree / "big.h")) is None
    (tree / "small.h").write_text("#define DEV __device__\n")
    assert translation._read(str(tree / "small.h")) == b"#define DEV __device__\n"
