"""The pure parts of verification: pairing files, comparing outputs, aligning translation lines."""

from __future__ import annotations

from pathlib import Path

import pytest

from cass_lsp.asm.scratch import HipTarget
from cass_lsp.verify import pairs
from cass_lsp.verify.alignment import LineAlignment
from cass_lsp.verify.compare import compare, lines_agree
from cass_lsp.verify.engine import judge
from cass_lsp.verify.stages import StageResult


def touch(path: Path, text: str = "") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_default_pattern_pairs_both_ways(tmp_path: Path) -> None:
    original, hip = touch(tmp_path / "saxpy.cu"), touch(tmp_path / "saxpy.hip")
    forward = pairs.pair_for(original, ["{stem}.hip"])
    assert forward == pairs.Pair(str(original), str(hip))
    assert pairs.pair_for(hip, ["{stem}.hip"]) == forward


def test_an_original_without_translation_pairs_with_its_rule_translation_only_when_asked(tmp_path: Path) -> None:
    original = touch(tmp_path / "alone.cu")
    assert pairs.pair_for(original, ["{stem}.hip"]) == pairs.Pair(str(original), None)
    assert pairs.pair_for(original, ["{stem}.hip"], rule_translation=False) is None


@pytest.mark.parametrize(
    ("pattern", "translation"),
    [("hip/{stem}.cpp", "src/hip/k.cpp"), ("../hip/{stem}.hip", "hip/k.hip"), ("{name}.hip", "src/k.cu.hip")],
)
def test_configured_patterns_pair_both_ways(tmp_path: Path, pattern: str, translation: str) -> None:
    original, ported = touch(tmp_path / "src/k.cu"), touch(tmp_path / translation)
    assert pairs.pair_for(original, [pattern]) == pairs.Pair(str(original), str(ported))
    assert pairs.pair_for(ported, [pattern]) == pairs.Pair(str(original), str(ported))


def test_a_file_no_pattern_names_belongs_to_no_pair(tmp_path: Path) -> None:
    touch(tmp_path / "a.cu")
    assert pairs.pair_for(touch(tmp_path / "other.hip"), ["{stem}.hip"]) is None
    assert pairs.pair_for(touch(tmp_path / "util.h"), ["{stem}.hip"]) is None


def test_the_first_existing_candidate_wins_in_both_directions(tmp_path: Path) -> None:
    original = touch(tmp_path / "k.cu")
    second = touch(tmp_path / "hip/k.cpp")
    patterns = ["{stem}.hip", "hip/{stem}.cpp"]
    assert pairs.pair_for(second, patterns) == pairs.Pair(str(original), str(second))
    first = touch(tmp_path / "k.hip")
    assert pairs.pair_for(original, patterns) == pairs.Pair(str(original), str(first))
    assert pairs.pair_for(second, patterns) is None  # no longer the translation k.cu uses


def test_pairs_under_skips_ignored_folders(tmp_path: Path) -> None:
    touch(tmp_path / "a.cu"), touch(tmp_path / "a.hip"), touch(tmp_path / "lib/b.cu")
    touch(tmp_path / "build/c.cu"), touch(tmp_path / ".git/d.cu")
    found = pairs.pairs_under([tmp_path], ["{stem}.hip"], ["build", ".git"])
    assert sorted(Path(p.original).name for p in found) == ["a.cu", "b.cu"]
    assert next(p for p in found if p.original.endswith("a.cu")).translation == str(tmp_path / "a.hip")


def test_numeric_comparison_tolerates_rounding_but_not_counts() -> None:
    assert lines_agree("sum = 1.0000001 ok", "sum = 1.0000002 ok", 1e-5, 1e-8)
    assert not lines_agree("sum = 1.01", "sum = 1.02", 1e-5, 1e-8)
    assert not lines_agree("count 1000000", "count 1000001", 1e-5, 1e-8)  # integers exactly
    assert lines_agree("x=nan y=-inf", "x=nan y=-inf", 1e-5, 1e-8)
    assert not lines_agree("y=inf", "y=-inf", 1e-5, 1e-8)
    assert not lines_agree("a 1.0", "b 1.0", 1e-5, 1e-8)
    assert lines_agree("3.0e-12", "3.1e-12", 1e-5, 1e-8)  # below the absolute tolerance


def test_compare_reports_the_first_difference() -> None:
    assert compare(0, b"a 1\nb 2.5\n", 0, b"a 1\nb 2.5000001\n") is None
    mismatch = compare(0, b"a 1\nb 2\nc 3\n", 0, b"a 1\nb 3\nc 3\n")
    assert mismatch is not None and mismatch.line == 1 and (mismatch.expected, mismatch.actual) == ("b 2", "b 3")
    short = compare(0, b"a\nb\n", 0, b"a\n")
    assert short is not None and short.actual == "<end of output>"
    code = compare(0, b"same", 3, b"same")
    assert code is not None and code.what == "exit code" and "original 0, translation 3" in code.describe()
    assert compare(0, b"1.0", 0, b"1.0000001", mode="exact") is not None


def test_alignment_maps_an_edited_translation_line_to_the_original() -> None:
    original = "#include <cuda_runtime.h>\nint main() {\n  cudaDeviceSynchronize();\n  return 0;\n}\n"
    translation = (
        "#include <hip/hip_runtime.h>\n// a comment the porter added\n// and another\n"
        "int main() {\n  cudaDeviceSynchronize(); // left over\n  return 0;\n}\n"
    )
    alignment = LineAlignment(original, translation, HipTarget("gfx1100", "7.1"))
    assert alignment.original_line(4) == 2  # int main()
    assert alignment.original_line(5) == 3  # the edited call pairs with its original line
    assert alignment.original_line(6) == 4


def test_verdicts() -> None:
    pair = pairs.Pair("/w/k.cu", "/w/k.hip")
    passed = StageResult("original", "sm_90", "passed", "ok")
    failed = StageResult("translation", "gfx1100", "failed", "clang-19 rejects it")
    missing = StageResult("run", None, "unavailable", "no runner")
    assert judge(pair, [passed, failed, missing], not_run=None)[0] == "failed"
    assert judge(pair, [passed, missing], not_run=None) == ("unverified", "k.cu ↔ k.hip: could not verify: run: no runner")
    verdict, summary = judge(pair, [passed], not_run="running is off")
    assert verdict == "passed" and summary.endswith("not run: running is off")
