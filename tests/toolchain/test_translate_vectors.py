"""HIP's vector types in the reverse direction, compiled: nvcc compiles the translation; the translation itself
is tested in tests/unit/test_translate_vectors.py."""

from __future__ import annotations

from pathlib import Path

from cass_lsp import toolchains
from cass_lsp.core import proc
from cass_lsp.translate import translate
from tests.unit.test_translate_vectors import KERNEL

_TIMEOUT_S = 300.0


def test_the_translation_compiles_with_nvcc(tmp_path: Path) -> None:
    nvcc = toolchains.nvcc_invocation("sm_90")
    source = tmp_path / "blend.cu"
    source.write_text(translate(KERNEL, reverse=True).text, encoding="utf-8")
    compiled = proc.run([*nvcc.argv, "-c", "-o", str(tmp_path / "blend.o"), str(source)], timeout=_TIMEOUT_S,
                        env=nvcc.env)
    assert compiled.ok, compiled.text()
