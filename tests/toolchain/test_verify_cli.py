"""`cass-lsp verify` with the real nvcc, clang-19 and the CPU runtime: exit 0 verified, 1 wrong,
2 could not verify (with the reason)."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

from cass_lsp.cli import main as cli
from cass_lsp.verify import runners
from cass_lsp.verify.engine import Report
from tests.toolchain import programs

ORIGINAL = """#include <cstdio>
#include <cuda_runtime.h>
__global__ void prefix_sums(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int total = 0;
    for (int j = 0; j <= i; ++j) total += in[j];
    out[i] = total;
  }
}
int main() {
  const int n = 64;
  int host[n];
  for (int i = 0; i < n; ++i) host[i] = i % 7;
  int *in, *out;
  cudaMalloc(&in, n * sizeof(int));
  cudaMalloc(&out, n * sizeof(int));
  cudaMemcpy(in, host, n * sizeof(int), cudaMemcpyHostToDevice);
  prefix_sums<<<2, 32>>>(in, out, n);
  cudaMemcpy(host, out, n * sizeof(int), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i += 16) printf("out[%d] = %d\\n", i, host[i]);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
"""
TRANSLATION = (
    ORIGINAL.replace("cuda_runtime.h", "hip/hip_runtime.h")
    .replace("cudaMemcpyHostToDevice", "hipMemcpyHostToDevice")
    .replace("cudaMemcpyDeviceToHost", "hipMemcpyDeviceToHost")
    .replace("cudaMalloc", "hipMalloc")
    .replace("cudaMemcpy", "hipMemcpy")
    .replace("cudaFree", "hipFree")
    .replace("prefix_sums<<<2, 32>>>(in, out, n)", "hipLaunchKernelGGL(prefix_sums, dim3(2), dim3(32), 0, 0, in, out, n)")
)
OFF_BY_ONE = TRANSLATION.replace("j <= i", "j < i")
UNDECLARED = TRANSLATION.replace("hipFree(in);", "cudaFree(in);")  # line 22
LEFTOVER_PTX = TRANSLATION.replace(
    "    out[i] = total;", '    int lane; asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));\n    out[i] = total + lane * 0;'
)


def verify(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    return programs.verify(capsys, *argv, cache=True)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "prefix.cu").write_text(ORIGINAL)
    return tmp_path


def test_a_correct_translation_compiles_and_runs_the_same_on_the_cpu(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / "prefix.hip").write_text(TRANSLATION)
    code, out = verify(capsys, str(project / "prefix.hip"), "--runner", "cpu", "--no-cache")
    assert code == 0, out
    assert out.startswith("PASS prefix.cu ↔ prefix.hip") and "runs the same (cpu)" in out


def test_a_translation_that_computes_something_else_fails_with_the_first_difference(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "wrong.hip").write_text(OFF_BY_ONE)
    code, out = verify(capsys, str(project / "prefix.cu"), "--against", str(project / "wrong.hip"), "--runner", "cpu")
    assert code == 1, out
    assert "output line 1 differs: expected 'out[0] = 0'" in out or "output line 2 differs" in out, out


def test_a_compile_error_names_the_translation_line(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / "prefix.hip").write_text(UNDECLARED)
    code, out = verify(capsys, str(project / "prefix.cu"), "--json")
    assert code == 1
    (report,) = msgspec.json.decode(out, type=list[Report])
    translation = next(s for s in report.stages if s.name == "translation")
    assert translation.outcome == "failed"
    errors = [d for d in translation.diagnostics if d.severity == "error"]
    assert errors[0].file == str(project / "prefix.hip") and errors[0].line == 22
    assert "cudaFree" in errors[0].message


def test_ptx_left_in_a_translation_passes_the_syntax_check_but_not_the_full_compile(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "prefix.hip").write_text(LEFTOVER_PTX)
    code, out = verify(capsys, str(project / "prefix.hip"), "--json")
    assert code == 1
    (report,) = json.loads(out)
    translation = next(s for s in report["stages"] if s["name"] == "translation")
    assert "--cuda-device-only" in translation["command"]  # the second step failed, not -fsyntax-only
    errors = [d for d in translation["diagnostics"] if d["severity"] == "error"]
    assert errors[0]["line"] == 8 and "invalid instruction" in errors[0]["message"]


def test_a_runner_that_cannot_run_here_exits_2_and_says_why(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    unavailable = "amd" if runners.nvidia_gpu() else "nvidia"
    code, out = verify(capsys, str(project / "prefix.cu"), "--runner", unavailable)
    assert code == 2
    assert out.startswith("SKIP") and f"the {unavailable} runner cannot run here" in out


def test_the_command_runner_runs_the_template(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / "prefix.hip").write_text(TRANSLATION)
    code, out = verify(
        capsys, str(project / "prefix.hip"), "--runner", "command", "--build-for", "cpu", "--command", "env", "{exe}"
    )
    assert code == 0, out
    assert "runs the same (command)" in out


def test_a_folder_verifies_every_original(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / "prefix.hip").write_text(UNDECLARED)
    (project / "sub").mkdir()
    (project / "sub" / "alone.cu").write_text(ORIGINAL)
    code, out = verify(capsys, str(project))
    assert code == 1
    assert "FAIL prefix.cu ↔ prefix.hip" in out and "PASS alone.cu (rule translation)" in out


@pytest.mark.parametrize(
    "argv",
    [["missing.cu"], ["prefix.cu", "--against", "prefix.cu"], ["notes.txt"]],
)
def test_bad_arguments_exit_2(project: Path, capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    (project / "notes.txt").write_text("x")
    code = cli.main(["verify", *[str(project / a) if not a.startswith("-") else a for a in argv]])
    assert code == 2
    assert "cass-lsp verify:" in capsys.readouterr().err


def test_a_translation_that_deadlocks_on_a_barrier_fails_at_once(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    divergent = TRANSLATION.replace(
        "    out[i] = total;", "    if (threadIdx.x < 16) __syncthreads();  // not every thread arrives\n    out[i] = total;"
    )
    (project / "prefix.hip").write_text(divergent)
    code, out = verify(capsys, str(project / "prefix.hip"), "--runner", "cpu", "--timeout", "60")
    assert code == 1, out
    assert "the translation deadlocks on the CPU runtime" in out


def test_compiler_text_reaches_the_terminal_escaped(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # nvcc and clang echo an #error line back: a repository chooses what they print (a CR would
    # end the line for them)
    hostile = '#error "\x1b]0;owned\x07\x1b[2J\x9b31m"\n'
    (project / "prefix.cu").write_text(hostile + ORIGINAL)
    (project / "prefix.hip").write_text(hostile + TRANSLATION)
    code, out = verify(capsys, str(project / "prefix.cu"))
    assert code == 2, out
    assert "\\x1b]0;owned\\x07\\x1b[2J" in out, out
    assert not any(c in out for c in "\x1b\x07\r\x9b"), out
