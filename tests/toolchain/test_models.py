"""The model files with processes and compilers: the tiny-model script run as a program, the tiny model's answer
compiled as HIP, and `cass-lsp translate --model` (its result is compiled); the rest of the model tests are
in tests/unit/test_models.py."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from cass_lsp import toolchains
from cass_lsp.core import proc
from cass_lsp.infer.tiny_model import DEFAULT_ANSWER
from tests.unit import test_models as unit

REPO = Path(__file__).resolve().parents[2]
tiny = unit.tiny  # the tiny model, written once per module (the unit tests' fixture)


def test_the_script_writes_the_same_model_without_shadowing_the_gguf_package(tiny: Path, tmp_path: Path) -> None:
    out = tmp_path / "by-script.gguf"
    result = subprocess.run(
        [sys.executable, str(REPO / "gguf" / "make_tiny_model.py"), str(out)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert out.read_bytes() == tiny.read_bytes()


def test_the_default_answer_compiles_as_hip(tmp_path: Path) -> None:
    fenced = re.fullmatch(r"```amd\n(.*)```", DEFAULT_ANSWER, re.DOTALL)
    assert fenced is not None
    source = tmp_path / "saxpy.hip"
    source.write_text(fenced.group(1), encoding="utf-8")
    try:
        compiler = toolchains.hip_invocation("gfx1100", "5.2")
    except toolchains.ToolchainMissing as exc:
        pytest.fail(str(exc))
    result = proc.run([*compiler.argv, "-fsyntax-only", "-Werror", str(source)], timeout=120, env=compiler.env)
    assert result.returncode == 0, result.stderr.decode()


def _model_cli(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *kernel_args: str
) -> tuple[str, str]:
    """``cass-lsp translate --model`` on a file with a kernel, the model answering the kernel
    (``x[i] *= s``, not the file's ``x[i] = x[i] * s``) and a helper that leaves a CUDA name."""
    from cass_lsp.cli import main as cli
    from cass_lsp.infer.tiny_model import write_tiny_model

    monkeypatch.setenv("OMP_WAIT_POLICY", "PASSIVE")
    monkeypatch.setenv("CASS_LSP_CONFIG_DIR", str(tmp_path / "config"))
    kernel = (
        "__global__ void scale(float* x, float s, int n) {\n"
        "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "  if (i < n) x[i] *= s;\n}"
    )
    model = tmp_path / "cass-tiny.gguf"
    # the model leaves a CUDA name (cudaDeviceSynchronize) for the rules' post-pass
    helper = "static void finish() { cudaDeviceSynchronize(); }"
    write_tiny_model(model, f"```amd\n{kernel}\n{helper}\n```")
    source = tmp_path / "scale.cu"
    source.write_text(
        "#include <cuda_runtime.h>\n" + kernel.replace("x[i] *= s", "x[i] = x[i] * s")
        + "\nint main() { float* d; cudaMalloc(&d, 64); scale<<<1, 64>>>(d, 2.0f, 16); cudaFree(d); }\n"
    )
    out = tmp_path / "scale.hip"
    code = cli.main(["translate", "--model", str(model), *kernel_args, "--rocm", "5.2", str(source), "-o", str(out)])
    err = capsys.readouterr().err
    assert code == 0, err
    assert "the translation compiles for gfx1100" in err
    return out.read_text(), err


def test_translate_a_kernel_with_the_model_on_the_command_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    text, err = _model_cli(tmp_path, monkeypatch, capsys, "--kernel", "scale")
    assert "x[i] *= s;" in text  # the model's kernel, not the file's
    # as in the editor, only the kernel's definition is taken from the answer (the CLI kept the
    # helper the model added, and ran the rules over the model's code a second time)
    assert "finish" not in text and "the rules translated 0 name(s)" in err
    assert "#include <hip/hip_runtime.h>" in text and "hipMalloc(&d, 64);" in text  # the rest of the file


def test_translate_a_file_with_the_model_on_the_command_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    text, err = _model_cli(tmp_path, monkeypatch, capsys)
    assert "x[i] *= s;" in text and "main" not in text  # the model's answer is the file
    assert "static void finish() { hipDeviceSynchronize(); }" in text  # the post-pass
    assert text.startswith("#include <hip/hip_runtime.h>") and "the rules translated 2 name(s)" in err
