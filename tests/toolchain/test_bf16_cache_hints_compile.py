"""The llm.c-shaped bf16 kernel file of tests/unit/test_translate_bf16_cache_hints.py, translated for
ROCm 7.1, compiles for gfx1100 with clang-19 and the HIP 7.1 headers (``hip/hip_bf16.h``, the
cache-hint helpers on ``int4`` and ``__hip_bfloat16``): device code, to assembly, with the streaming
loads present."""

from __future__ import annotations

from pathlib import Path

from cass_lsp import toolchains
from cass_lsp.core import proc
from cass_lsp.translate import translate
from tests.unit.test_translate_bf16_cache_hints import P71, SOURCE


def test_translated_bf16_kernels_compile_for_gfx1100(tmp_path: Path) -> None:
    source = tmp_path / "residual.hip"
    source.write_text(translate(SOURCE, P71).text)
    invocation = toolchains.hip_invocation("gfx1100", "7.1")
    out = tmp_path / "residual.s"
    result = proc.run([*invocation.argv, "-std=c++17", "--cuda-device-only", "-S", "-O2", "-o", str(out), str(source)],
                      env=invocation.env, timeout=300)
    assert result.ok, result.text()
    assert "residual_scale" in out.read_text() and "global_load_b128" in out.read_text()
