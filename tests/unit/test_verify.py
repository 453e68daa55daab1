"""The pure parts of verification: pairing files, comparing outputs, aligning translation lines."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cass_lsp.compile import program as program_module
from cass_lsp.compile.program import Program, Unit
from cass_lsp.compile.scratch import HipTarget, Scratch
from cass_lsp.core import pairs
from cass_lsp.core.proc import ProcResult
from cass_lsp.core.settings import CompilerLimits, VerificationSettings
from cass_lsp.verify import command as run_command
from cass_lsp.verify import stages
from cass_lsp.verify.alignment import LineAlignment
from cass_lsp.verify.compare import Noise, compare, ignore_patterns, lines_agree, merge_noise, noise
from cass_lsp.verify.engine import judge
from cass_lsp.verify.run import NotRun
from cass_lsp.verify.stages import StageResult
from cass_lsp.verify.tables import mask_timing_columns

BOUNDS = CompilerLimits().bounds()

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
    name = pairs.Pair("/w/k.cu", "/w/k.hip").describe()
    passed = StageResult("original", "sm_90", "passed", "ok")
    failed = StageResult("translation", "gfx1100", "failed", "clang-19 rejects it")
    missing = StageResult("run", None, "unavailable", "no runner")
    assert judge(name, [passed, failed, missing], not_run=None)[0] == "failed"
    assert judge(name, [passed, missing], not_run=None) == ("unverified", "k.cu ↔ k.hip: could not verify: run: no runner")
    verdict, summary = judge(name, [passed], not_run=NotRun("running is off", asked=False))
    assert verdict == "passed" and summary.endswith("not run: running is off")


@pytest.mark.parametrize(
    "not_run", [None, NotRun("no unit of the program defines main", asked=True), NotRun("running is refused", asked=True)]
)
def test_a_program_asked_to_run_that_did_not_run_is_never_verified(not_run: NotRun | None) -> None:
    compiled = [StageResult("original", "sm_90", "passed", "ok"), StageResult("translation", "gfx1100", "passed", "ok")]
    verdict, summary = judge("k.cu (rule translation)", compiled, not_run=not_run)
    assert verdict == "unverified", summary
    assert "could not verify" in summary and "was not run" in summary, summary


def test_an_original_nvcc_rejects_makes_the_verdict_could_not_verify_never_failed() -> None:
    original = StageResult("original", "sm_90", "failed", "nvcc rejects the original: needs --expt-relaxed-constexpr")
    translation = StageResult("translation", "gfx1100", "failed", "clang-19 rejects the translation")
    verdict, summary = judge("k.cu (rule translation)", [original, translation], not_run=NotRun("off", asked=False))
    assert verdict == "unverified"
    assert "could not verify: the original does not compile" in summary and "expt-relaxed-constexpr" in summary


# Timing lines as real programs print them: every one must be masked by default.
TIMING_LINES = [
    ("Average kernel execution time 212.6 (ms)", "Average kernel execution time 198.1 (ms)"),
    ("Total 1759586.0 (us)", "Total 1801234.5 (us)"),
    ("execution time 0.0419 (s)", "execution time 0.0388 (s)"),
    ("t = 10540.8 usec/iter, BW = 0.199 GB/s, P = 0.149 Gflop/s", "t = 9876.1 usec/iter, BW = 0.212 GB/s, P = 0.160 Gflop/s"),
    ("Elapsed: 12.5ms, 3.2 GFLOPS, 1.5e6 items/s", "Elapsed: 11.0ms, 3.6 GFLOPS, 1.7e6 items/s"),
    ("Time (us): 17.5", "Time (us): 19.25"),
    ("kernel 3 MSEC", "kernel 4 MSEC"),
]


@pytest.mark.parametrize(("first", "second"), TIMING_LINES)
def test_the_default_masks_cover_the_timing_units_real_programs_print(first: str, second: str) -> None:
    ignore = ignore_patterns(VerificationSettings().compare_ignore)
    assert compare(0, first.encode(), 0, second.encode(), ignore=ignore) is None


def test_the_default_masks_leave_counts_and_results_alone() -> None:
    ignore = ignore_patterns(VerificationSettings().compare_ignore)
    for line, other in [("sum = 15 samples", "sum = 16 samples"), ("found 3 sets", "found 4 sets"), ("n=4 m=5", "n=4 m=6")]:
        assert compare(0, line.encode(), 0, other.encode(), ignore=ignore) is not None


def test_what_varies_between_runs_of_the_original_is_noise_not_evidence() -> None:
    first = b"n = 20000\nbase  26.027  0.2\nthread 3 finished last\nsum = 42\n"
    second = b"n = 20000\nbase  25.113  0.2\nthread 7 finished last\nsum = 42\n"
    varying = noise(first, second)
    assert varying == Noise(lines=(), numbers=(1, 2))
    assert varying.describe() == "2 line(s) vary between runs of the original and were not compared"
    # the translation's own timing (and the ratio computed from it) is not compared; its result is
    translation = b"n = 20000\nbase  31.500  0.3\nthread 1 finished last\nsum = 42\n"
    assert compare(0, first, 0, translation, noise=varying) is None
    wrong = b"n = 20000\nbase  31.500  0.3\nthread 1 finished last\nsum = 43\n"
    mismatch = compare(0, first, 0, wrong, noise=varying)
    assert mismatch is not None and mismatch.line == 3
    # a line of other text still differs
    assert compare(0, first, 0, translation.replace(b"base", b"fast"), noise=varying) is not None


def test_a_timing_that_gains_a_digit_in_a_padded_field_is_still_noise() -> None:
    # printf("%-6s %9.3f %6.1f") pads 8.284 with one blank more than 13.133 (CI saw this as a "race")
    first, second = b"ops        8.284    2.4\nsum = 42\n", b"ops        8.291    2.4\nsum = 42\n"
    varying = noise(first, second)
    assert varying == Noise(numbers=(0,))
    assert compare(0, first, 0, b"ops       13.133    1.5\nsum = 42\n", noise=varying) is None
    assert compare(0, first, 0, b"ops       13.133    1.5\nsum = 43\n", noise=varying) is not None
    assert lines_agree("n =   7 ok", "n = 7 ok", 1e-5, 1e-8)
    assert not lines_agree("n = 7 ok", "n =7 ok", 1e-5, 1e-8)  # a blank is still text
    assert compare(0, b"n =   7\n", 0, b"n = 7\n", mode="exact") is not None


def test_whole_lines_that_vary_are_left_out_and_runs_of_other_lengths_are_not_compared() -> None:
    assert noise(b"a\nstarted at Tue\nz\n", b"a\nstarted on host-2\nz\n") == Noise(lines=(1,))
    assert noise(b"a\n", b"a\nb\n") == "the original printed 1 and then 2 lines in two runs"


def test_exit_code_mode_compares_exit_codes_alone() -> None:
    assert compare(0, b"x", 0, b"y", mode="exit-code") is None
    assert compare(0, b"x", 3, b"x", mode="exit-code") is not None


def test_noise_seen_in_more_runs_widens_what_is_left_out() -> None:
    first = Noise(lines=(2,), numbers=(1,))
    widened = merge_noise(first, Noise(numbers=(2, 4)), "the runs differ in length")
    assert widened == Noise(lines=(2,), numbers=(1, 4))


def _translation_plan() -> stages.CompilePlan:
    pair = pairs.Pair("/w/k.cu", None)
    inputs = stages.Inputs(pair, Program("/w", (Unit("/w/k.cu"),), "one file"), {"/w/k.cu": ""})
    return stages.CompilePlan("translation", "gfx1100", inputs, HipTarget("gfx1100", "7.1"), (), ((),), (), {}, {}, "")


@pytest.mark.parametrize(
    ("stderr", "outcome"),
    [
        # the AMDGPU backend breaking its own rules on a device library's code: not the program's fault
        (b"error: Illegal instruction detected: Invalid dpp_ctrl value: wavefront shifts are not supported on GFX10+\n", "unavailable"),
        (b"PLEASE submit a bug report to https://github.com/llvm/llvm-project/issues/\n", "unavailable"),
        # an error on a line of the program is the program's
        (b"<tmp>/k.cu:3:5: error: use of undeclared identifier 'cudaFree'\n", "failed"),
    ],
)
def test_a_compiler_defect_on_no_line_of_the_program_is_could_not_verify(stderr: bytes, outcome: str) -> None:
    scratch = Scratch("<tmp>", Path("/w"), {})
    result = stages._failed(_translation_plan(), scratch, ProcResult(1, b"", stderr, 0.1), [], 0.1, BOUNDS)
    assert result.outcome == outcome, result.message


def test_a_compile_that_times_out_is_could_not_verify() -> None:
    scratch = Scratch("<tmp>", Path("/w"), {})
    result = stages._failed(_translation_plan(), scratch, ProcResult(-9, b"", b"", 120.0, timed_out=True), [], 120.0, BOUNDS)
    assert result.outcome == "unavailable" and "compileTimeoutSeconds" in result.message


# A benchmark's table: units only in its header, rows of bare numbers (the sizes are no timing).
TABLE = "array size 1048576\nname      size    time(ms)   GB/s\ncopy      4096    {0}       {1}\nscale     4096    {2}       {3}\nchecksum 523776\n"


def test_a_table_whose_header_names_the_units_has_its_timings_masked() -> None:
    original = TABLE.format("0.52", "123.4", "0.61", "110.2").encode()
    # the original's two runs printed the same numbers: no noise seen, yet they are timings
    assert noise(original, original) == Noise()
    port = TABLE.format("0.47", "136.9", "0.58", "115.7").encode()
    assert compare(0, original, 0, port) is None
    # the columns without a unit, and the lines after the table, still compare
    assert compare(0, original, 0, port.replace(b"4096", b"4095", 1)) is not None
    assert compare(0, original, 0, port.replace(b"523776", b"523775")) is not None


@pytest.mark.parametrize(
    ("lines", "masked"),
    [
        (["Kernel Name      Time (ms)   Bandwidth (GB/s)", "vector add       0.52        123.4"], "vector add       …        …"),
        (["size  iters  time_us", "1024  10  17.5"], "1024  10  …"),
        (["Function    Best Rate MB/s  Avg time", "Copy:           12345.6     0.012345"], "Copy:           …     0.012345"),
        (["Elapsed time in ms", "Result: 42"], "Result: 42"),  # prose ending in a unit is no header
        (["n  time(s)", "4  0.5", "sum 7 8 9"], "sum 7 8 9"),  # the table ended
    ],
)
def test_timing_columns(lines: list[str], masked: str) -> None:
    assert mask_timing_columns(lines)[-1] == masked


MAINS = [
    "int32_t main(int32_t argc, char* argv[]) {", "auto main() -> int {", "int main(void){}", "[[nodiscard]] int main() {}",
    "int main([[maybe_unused]] int argc, char** argv) {", "MAIN_RETURN main(int c, char** v)\n{", "signed main() {",
    "static int\nmain(int argc, char **argv)\n{", "int main ( int argc , char * * argv ) {", 'extern "C" {\nint main() { return 0; }\n}',
    'extern "C" int main() {}', "int main() try { } catch (...) {}", "std::int32_t main() {}", "int __attribute__((used)) main() {}",
    "#ifdef WIDE\nvoid f(long x) {\n#else\nvoid f(int x) {\n#endif\n}\nint main() {}",
]  # fmt: skip
NOT_MAINS = [
    "int main();", "int f() { return main(argc, argv); }", "void f() { app.main(); }", "app::main() {}",
    "struct App { int main() { return 0; } };", "namespace tool { int main() { return 0; } }", "// int main() {}",
    'const char* s = "int main() {}";', "#define ENTRY int main() {", "void* main_thread(void*) {}", "int Runner::main() {}",
]  # fmt: skip


@pytest.mark.parametrize("text", MAINS)
def test_main_in_any_spelling(text: str) -> None:
    assert program_module.defines_main(text)
    first = re.search(r"\bmain\s*\(", text)
    assert first is not None
    assert program_module.main_line("// entry\n" + text) == 1 + text.count("\n", 0, first.start())


@pytest.mark.parametrize("text", NOT_MAINS)
def test_what_is_no_definition_of_main(text: str) -> None:
    assert not program_module.defines_main(text)


@pytest.mark.parametrize(
    ("line", "words", "env", "shell"),
    [
        ("GSL_RNG_SEED=123 ./main 1024", ("./main", "1024"), {"GSL_RNG_SEED": "123"}, None),
        ("./nbody 64 \\\n    data/bodies.txt", ("./nbody", "64", "data/bodies.txt"), {}, None),
        ('env OMP_NUM_THREADS=1 TAG="a b" ./prog', ("./prog",), {"OMP_NUM_THREADS": "1", "TAG": "a b"}, None),
        ('sh -c "N=4 ./prog 8"', ("./prog", "8"), {"N": "4"}, None),
        ("bash run.sh 64", ("run.sh", "64"), {}, "bash"),
        ("./runtests.sh", ("./runtests.sh",), {}, None),
    ],
)
def test_run_lines_as_makefiles_write_them(line: str, words: tuple[str, ...], env: dict[str, str], shell: str | None) -> None:
    parsed = run_command.parse(line)
    assert (parsed.words, parsed.env, parsed.shell) == (words, env, shell)


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("./a && ./b", "holds '&&'"), ("./p > out.txt", "holds '>'"), ("./p | sort", "holds '|'"),
        ('sh -c "./a; ./b"', "holds ';'"), ("./p $N", "expands variables"), ("./p `cat n`", "expands variables"),
        ("./p data/*.txt", "a pattern a shell would expand"), ("LD_PRELOAD=x.so ./p", "sets LD_PRELOAD"),
        ("PATH=. ./p", "sets PATH"), ("CASS_CPU_ORDER=reverse ./p", "sets CASS_CPU_ORDER"),
        ("./p 'open", "No closing quotation"), ("N=1", "names no command"),
        ("bash -x", "with no script"),
    ],
)  # fmt: skip
def test_run_lines_that_need_a_shell_are_refused(line: str, why: str) -> None:
    with pytest.raises(ValueError, match=re.escape(why)):
        run_command.parse(line)


def test_a_data_file_removed_while_the_folder_is_walked_is_left_out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a program in a folder other programs write to (/tmp): a file may go between the walk's look
    # at it and its size; that once made the verdict "could not verify: cannot read .../pid"
    (tmp_path / "main.cu").write_text("int main() { return 0; }\n")
    (tmp_path / "input.txt").write_text("8\n")
    (tmp_path / "job.pid").write_text("42\n")
    real_is_file = Path.is_file

    def is_file_then_removed(path: Path) -> bool:
        found = real_is_file(path)
        if path.name == "job.pid":
            path.unlink()  # the other program removes it right after
        return found

    monkeypatch.setattr(Path, "is_file", is_file_then_removed)
    program = Program(str(tmp_path), (Unit(str(tmp_path / "main.cu")),), "one file")
    taken, note = program_module.data_files(program)
    assert taken == [tmp_path / "input.txt"] and note is None
