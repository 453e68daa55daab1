"""Where the HIP runtime include goes, checked by the compilers: the translated realcode/tree compiles with
clang-19, breaks without the tree rule, and the original compiles with nvcc; the placement itself is tested in
tests/unit/test_translate_placement.py."""

from __future__ import annotations

import shutil
from pathlib import Path

from cass_lsp import toolchains
from cass_lsp.core import proc
from cass_lsp.translate import placement
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


def test_a_program_verified_from_its_rule_translation_gets_the_tree_placement(tmp_path: Path) -> None:
    """Verification's materialize places the runtime as a tree translation does: the host driver
    rule-translated on its own kept the header's include after ``#define T`` (clang rejected the
    translation where nvcc, which includes cuda_runtime.h first, took the original)."""
    from cass_lsp.compile import program as program_module
    from cass_lsp.compile.scratch import HipTarget
    from cass_lsp.translate.buffer import translated

    src = tmp_path / "cuda"
    shutil.copytree(TREE, src)
    units = tuple(program_module.Unit(str(src / "src" / name), None, ("-I../include",), str(src / "src"))
                  for name in ("driver.cpp", "solver.cu"))
    program = program_module.Program(str(src / "src"), units, "test", str(src / "src/driver.cpp"))
    target = HipTarget("gfx1100", "5.2")
    compiler = toolchains.hip_invocation("gfx1100", "5.2")

    def compiles(root: Path, placed: bool) -> tuple[program_module.Materialized, bool]:
        built = program_module.materialize(str(root), program, {}, "translation", translator=translated,
                                           translate_to=target,
                                           place_runtime=placement.tree_fixes if placed else None)
        driver = built.units[0]
        result = proc.run([*compiler.argv, "-fsyntax-only", "-w", *built.mapped_flags([f"-I{src / 'include'}"]),
                           str(driver)], timeout=_TIMEOUT_S, env=compiler.env)
        return built, result.ok

    built, ok = compiles(tmp_path / "placed", True)
    assert ok and placement.runtime_first(built.units[0].read_bytes())
    assert built.units[0].read_text().startswith("// Host driver")  # after the leading comment
    # the inserted line maps where the line after it came from; the rest move down by one
    line_map = built.scratch.line_maps[str(src / "src/driver.cpp")]
    assert [line_map.original(n) for n in (1, 2, 3, 4)] == [1, 2, 2, 3]
    assert not compiles(tmp_path / "as-before", False)[1]  # one file at a time: the failure it fixes
