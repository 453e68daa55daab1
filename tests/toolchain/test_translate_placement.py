"""Where the HIP runtime include goes, checked by the compilers: the translated realcode/tree compiles with
clang-19, breaks without the tree rule, and the original compiles with nvcc; the placement itself is tested in
tests/unit/test_translate_placement.py."""

from __future__ import annotations

from pathlib import Path

from cass_lsp import toolchains
from cass_lsp.core import proc
from tests.unit.test_translate_placement import TREE, _translate_tree

_TIMEOUT_S = 300.0


def test_the_translated_tree_compiles_with_clang(tmp_path: Path) -> None:
    out = _translate_tree(tmp_path)
    compiler = toolchains.hip_invocation("gfx1100", "5.2")
    for unit in ("src/solver.hip", "src/driver.cpp"):
        result = proc.run([*compiler.argv, "-fsyntax-only", "-w", f"-I{out / 'include'}", str(out / unit)],
                          timeout=_TIMEOUT_S, env=compiler.env)
        assert result.ok, result.text()


def test_without_the_tree_rule_the_host_file_breaks(tmp_path: Path) -> None:
    """The failure the tree rule prevents is real: the header's own include comes after ``T``."""
    out = _translate_tree(tmp_path)
    driver = out / "src/driver.cpp"
    text = driver.read_text()
    driver.write_text(text.replace("#include <hip/hip_runtime.h>\n", "", 1))
    compiler = toolchains.hip_invocation("gfx1100", "5.2")
    result = proc.run([*compiler.argv, "-fsyntax-only", "-w", f"-I{out / 'include'}", str(driver)],
                      timeout=_TIMEOUT_S, env=compiler.env)
    assert not result.ok


def test_the_original_tree_compiles_with_nvcc(tmp_path: Path) -> None:
    nvcc = toolchains.nvcc_invocation("sm_90")
    for unit in ("src/solver.cu", "src/driver.cpp"):
        result = proc.run([*nvcc.argv, "-x", "cu", "-c", "-o", str(tmp_path / "o.o"), f"-I{TREE / 'include'}",
                           str(TREE / unit)], timeout=_TIMEOUT_S, env=nvcc.env)
        assert result.ok, result.text()
