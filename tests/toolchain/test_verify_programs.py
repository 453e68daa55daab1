"""`cass-lsp verify` on a program shaped like real ones, with the real nvcc, clang-19 and the CPU
runtime: two units and a shared header that launches a template kernel, its flags in a
compile_commands.json (a `-DSCALE` and `--expt-relaxed-constexpr` it cannot compile without, and a
`-Xcompiler -fplugin=` that must never be passed on), an input file, and timing lines that differ on
every run. A verdict must be true: never "verified" when the original did not run cleanly, never
"failed" when the original is at fault."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cass_lsp.cli import main as cli
from cass_lsp.compile import program as program_module
from tests.toolchain.programs import copied, verify


@pytest.fixture
def program(tmp_path: Path) -> Path:
    return copied("ops_app", tmp_path)


def test_a_program_of_several_units_with_timing_lines_and_an_input_file_is_verified(
    program: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = verify(capsys, str(program), "--runner", "cpu")
    assert code == 0, out
    assert out.startswith("PASS main.cu + 1 unit: compiles (gfx1100) and runs the same (cpu)"), out
    assert "(2 units)" in out
    # the wall-clock table row differs on every run; the event timing is masked by its unit
    assert "1 line(s) vary between runs of the original and were not compared" in out
    assert "-Xcompiler -fplugin=evil.so: loads code from a path of the build's choosing" in out


def test_a_missing_input_file_is_never_a_pass(program: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (program / "input.txt").unlink()
    code, out = verify(capsys, str(program), "--runner", "cpu")
    assert code == 2, out  # both sides print nothing and exit 1: that is no agreement
    assert out.startswith("SKIP") and "the original exited 1, not 0 (cannot read input.txt)" in out, out


def test_a_runner_that_fails_is_could_not_verify(program: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = verify(
        capsys, str(program), "--runner", "command", "--build-for", "cpu", "--command", "/nonexistent/run", "{exe}"
    )
    assert code == 2, out
    assert "the original was not found by the runner (exit 127)" in out, out


def test_an_original_built_without_its_flags_is_not_blamed_on_the_translation(
    program: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (program / "compile_commands.json").unlink()
    code, out = verify(capsys, str(program))
    assert code == 2, out
    assert "could not verify: the original does not compile" in out and "-DSCALE" in out, out
    # the same flags from the command line
    flags = ["--nvcc-arg=-DSCALE=3", "--nvcc-arg=--expt-relaxed-constexpr", "--hip-arg=-DSCALE=3"]
    code, out = verify(capsys, str(program), *flags)
    assert code == 0, out
    assert "compiles with nvcc and clang-19 (gfx1100); not run" in out


def test_a_wrong_translation_of_one_unit_fails(program: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["translate", str(program / "ops.cu"), "-o", str(program / "ops.hip")]) == 0
    hip = (program / "ops.hip").read_text()
    assert "stride /= 2" in hip
    (program / "ops.hip").write_text(hip.replace("stride /= 2", "stride /= 4"))
    capsys.readouterr()
    code, out = verify(capsys, str(program), "--runner", "cpu")
    assert code == 1, out
    assert out.startswith("FAIL main.cu + 1 unit") and "the translation (and rule translations)" in out, out
    assert "output line 2 differs: expected 'sum = " in out, out


WARP = """#include <cstdio>
__global__ void lanes(int* out) { if (threadIdx.x == 0) *out = warpSize; }
int main() {
  int* d;
  int h = 0;
  cudaMalloc(&d, sizeof(int));
  lanes<<<1, 64>>>(d);
  cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost);
  printf("warp %d\\n", h);
  return 0;
}
"""


def test_the_translation_runs_with_the_wave_size_of_each_arch_verified(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "warp.cu").write_text(WARP)
    code, out = verify(capsys, str(tmp_path / "warp.cu"), "--runner", "cpu", "--arch", "gfx1100", "--arch", "gfx90a")
    assert code == 1, out
    assert "run (cpu gfx1100): run on cpu (gfx1100, wave 32): original and translation agree" in out, out
    assert "run (cpu gfx90a): run on cpu (gfx90a, wave 64): output line 1 differs: expected 'warp 32', got 'warp 64'" in out


def test_translation_files_that_include_a_cuda_header_take_its_rule_translation(
    program: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # every unit has its translation file, and both include the CUDA header common.cuh: the header
    # is a file of the program without a translation file, so it takes its rule translation
    for unit in ("main", "ops"):
        assert cli.main(["translate", str(program / f"{unit}.cu"), "-o", str(program / f"{unit}.hip")]) == 0
    assert '#include "common.cuh"' in (program / "main.hip").read_text()
    capsys.readouterr()
    code, out = verify(capsys, str(program))
    assert code == 0, out
    assert "the translation compiles with clang-19 for gfx1100 (2 units)" in out, out


SAMPLES_STYLE = Path(__file__).parent / "programs" / "samples_style"


def test_a_sample_with_helpers_from_a_shared_include_folder_is_verified(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """NVIDIA's samples include <helper_cuda.h> from Common/: it is the project's header, translated
    on the HIP side (its #ifdef __CUDA_RUNTIME_H__ helpers exist only when the guard follows the
    include), its own angle include is found beside it, its #ifdef CUBLAS_API_H_ section refuses
    nothing, and both runtimes define the guards it tests. Before: the original did not compile
    (helper_timer.h missing from the copied include folder), then the translation failed
    (findCudaDevice undeclared), then the CPU run refused cuBLAS."""
    tree = tmp_path / "samples_style"
    shutil.copytree(SAMPLES_STYLE, tree)
    code, out = verify(capsys, str(tree / "Samples" / "scan_blocks" / "scan_blocks.cu"), "--runner", "cpu")
    assert code == 0, out
    assert out.startswith("PASS scan_blocks.cu (rule translation): compiles (gfx1100) and runs the same (cpu)"), out
    assert "agree (exit 0, 5 line(s) of output" in out, out


@pytest.mark.parametrize(("header", "verdict", "said"), [
    ("hipsomething_absent.h", "SKIP", "clang-19 has no <hipsomething_absent.h> here, a header of the system or of a "
     "HIP library"),
    ("cuda/barrier", "FAIL", "'cuda/barrier' file not found"),
    # rocThrust keeps Thrust's paths: for ROCm 7.1 this machine has none (hiplibs.NOT_IN_PROFILE)
    ("thrust/device_vector.h", "SKIP", "rocThrust's headers for ROCm 7.1 are not on this machine"),
    # Debian 12's rocRAND 5.3 under hipRAND, which HIP 7.1 cannot compile (its vector types lost .data)
    ("hiprand/hiprand_kernel.h", "SKIP", "the rocRAND headers do not compile with ROCm 7.1's HIP even on their own"),
])  # fmt: skip
def test_a_header_clang_cannot_find_or_compile_is_the_translations_fault_only_when_it_is_cudas(
    header: str, verdict: str, said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """NVIDIA's cudaOpenMP sample includes <omp.h>, which clang-19 lacks here (no libomp-19-dev):
    that is this machine's gap ('could not verify'), and so is a HIP library without headers for
    the target ROCm here (a Thrust or cuRAND program verified for ROCm 7.1 was "failed"); a CUDA
    header left in a translation is the translation's ('failed')."""
    source = tmp_path / "k.cu"
    source.write_text(f"#include <cuda_runtime.h>\n#if defined(__HIP_PLATFORM_AMD__) || defined(__CUDA_ARCH__)\n"
                      f"#include <{header}>\n#endif\n__global__ void k(int* x) {{ x[0] = 1; }}\n")
    if not header.startswith("cuda"):  # on the HIP side only: nvcc has none of them
        source.write_text(source.read_text().replace(" || defined(__CUDA_ARCH__)", ""))
    code, out = verify(capsys, str(source))
    assert out.startswith(verdict), out
    assert code == (2 if verdict == "SKIP" else 1)
    assert said in out, out


def test_a_data_folder_named_like_the_executable_verifies_like_any_program(
    program: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The built executable is "program": a data folder of that name once made every run raise
    FileExistsError (the executable was copied into the run's folder first, then the data)."""
    (program / "program").mkdir()
    (program / "program" / "input.txt").write_text("1 2 3\n")
    code, out = verify(capsys, str(program), "--runner", "cpu")
    assert code == 0, out
    assert out.startswith("PASS main.cu + 1 unit: compiles (gfx1100) and runs the same (cpu)"), out


def test_a_data_file_named_like_the_executable_does_not_replace_it(
    program: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A data file "program" was copied over the executable: the runs executed the data file."""
    (program / "program").write_text("not a program\n")
    code, out = verify(capsys, str(program), "--runner", "cpu")
    assert code == 0, out
    assert out.startswith("PASS main.cu + 1 unit: compiles (gfx1100) and runs the same (cpu)"), out


def test_a_data_link_leading_outside_the_program_folder_is_never_copied(
    program: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A link `input.txt -> ~/.ssh/id_ed25519` was copied with its target's content into the run's
    folder, where the confined program could read and print it. Now it is left out, and said: the
    original cannot read its input, and the verdict says why."""
    outside = tmp_path / "secret.txt"
    outside.write_text((program / "input.txt").read_text())  # an input the program would accept
    (program / "input.txt").unlink()
    (program / "input.txt").symlink_to(outside)
    code, out = verify(capsys, str(program), "--runner", "cpu")
    assert code == 2, out
    assert "the original exited 1, not 0 (cannot read input.txt)" in out, out
    assert "data links leading outside the program's folder were not copied: input.txt" in out, out


def test_a_data_link_inside_the_program_folder_is_copied_as_its_target(
    program: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (program / "inputs").mkdir()
    (program / "input.txt").rename(program / "inputs" / "sizes.txt")
    (program / "input.txt").symlink_to(Path("inputs", "sizes.txt"))
    code, out = verify(capsys, str(program), "--runner", "cpu")
    assert code == 0, out
    assert "not copied" not in out, out


def test_data_files_take_links_only_when_they_resolve_inside_the_program_folder(tmp_path: Path) -> None:
    root = tmp_path / "app"
    (root / "inputs").mkdir(parents=True)
    (root / "main.cu").write_text("int main() { return 0; }\n")
    (root / "inputs" / "a.txt").write_text("a\n")
    (tmp_path / "secret").write_text("key\n")
    (root / "inside.txt").symlink_to(Path("inputs", "a.txt"))
    (root / "outside.txt").symlink_to(tmp_path / "secret")
    (root / "inputs" / "up.txt").symlink_to(Path("..", "..", "secret"))
    (root / "loop.txt").symlink_to("loop.txt")
    (root / "linked").symlink_to(tmp_path)  # a linked folder is not walked
    found = program_module.of_file(str(root / "main.cu"), [])
    data, note = program_module.data_files(found)
    assert sorted(str(p.relative_to(root)) for p in data) == ["inputs/a.txt", "inside.txt"]
    assert note == "data links leading outside the program's folder were not copied: outside.txt, inputs/up.txt"
