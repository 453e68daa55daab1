"""One naming rule for translations, shared by the CLI and the server."""

from __future__ import annotations

from pathlib import Path

from cass_lsp.cli import main as cli
from cass_lsp.server.actions import translation_uri
from cass_lsp.translate.naming import translated_name


def test_beside_the_original_every_file_gets_a_name_of_its_own() -> None:
    assert translated_name("src/k.cu", reverse=False, beside_original=True) == "src/k.hip"
    assert translated_name("src/k.cuh", reverse=False, beside_original=True) == "src/k.hip.h"
    assert translated_name("src/k.hip", reverse=True, beside_original=True) == "src/k.cu"
    assert translated_name("src/k.hip.h", reverse=True, beside_original=True) == "src/k.cuh"
    assert translation_uri("file:///w/k.cuh", reverse=False) == "file:///w/k.hip.h"
    assert translation_uri("file:///w/my%20k.cu", reverse=False) == "file:///w/my%20k.hip"


def test_into_another_folder_headers_keep_their_names(tmp_path: Path) -> None:
    assert translated_name("k.cuh", reverse=False, beside_original=False) == "k.cuh"
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "k.cu").write_text('#include "k.cuh"\n__global__ void k() {}\n')
    (tree / "k.cuh").write_text("__device__ inline float twice(float x) { return 2 * x; }\n")
    assert cli.main(["translate", str(tree), "--out-dir", str(tmp_path / "out")]) == 0
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["k.cuh", "k.hip"]
    assert '#include "k.cuh"' in (tmp_path / "out" / "k.hip").read_text()
