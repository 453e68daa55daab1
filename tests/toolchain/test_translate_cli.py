"""``cass-lsp translate``: the verb's run() in-process, and the real command in a subprocess."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest

from cass_lsp.cli import translate as cli
from cass_lsp.translate.report import Summary

KERNEL = ("#include <cuda_runtime.h>\n__global__ void k(float* x) { x[threadIdx.x] = 0; }\n"
          "void launch(float* x) { k<<<1, 64>>>(x); cudaDeviceSynchronize(); }\n")
UNSUPPORTED = "#include <cuda_runtime.h>\nvoid f() { cudaDeviceFlushGPUDirectRDMAWrites(cudaFlushGPUDirectRDMAWritesTargetCurrentDevice, cudaFlushGPUDirectRDMAWritesToOwner); }\n"
HEADER = "#pragma once\n#include <cuda_fp16.h>\n__device__ inline __half twice(__half x) { return __hadd(x, x); }\n"


def run_cli(*argv: str) -> int:
    parser = argparse.ArgumentParser()
    cli.add_arguments(parser)
    return cli.run(parser.parse_args(list(argv)))


def command(*argv: str, cwd: Path | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "cass_lsp", "translate", *argv], capture_output=True,
                          timeout=120, cwd=cwd, check=False)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    src = tmp_path / "src"
    (src / "kernels").mkdir(parents=True)
    (src / "kernels" / "k.cu").write_text(KERNEL)
    (src / "kernels" / "half.cuh").write_text(HEADER)
    (src / "main.cpp").write_text("#include <cuda_runtime.h>\nint main() { return cudaSuccess; }\n")
    (src / "notes.txt").write_text("cudaMalloc is not code here\n")
    (src / ".git").mkdir()
    (src / ".git" / "x.cu").write_text(KERNEL)
    return src


def test_one_file_goes_to_stdout(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "k.cu"
    path.write_text(KERNEL)
    assert run_cli(str(path), "--rocm", "5.2") == 0
    captured = capsys.readouterr()
    assert captured.out == KERNEL.replace("cuda_runtime.h", "hip/hip_runtime.h").replace(
        "cudaDeviceSynchronize", "hipDeviceSynchronize")
    assert "1 file(s)" in captured.err and "runtime 1" in captured.err


def test_output_file_and_launch_style(tmp_path: Path) -> None:
    path = tmp_path / "k.cu"
    path.write_text(KERNEL)
    out = tmp_path / "k.hip"
    assert run_cli(str(path), "-o", str(out), "--launch-style", "hipLaunchKernelGGL", "--rocm", "7.1") == 0
    assert "hipLaunchKernelGGL(k, dim3(1), dim3(64), 0, 0, x);" in out.read_text()


def test_out_dir_keeps_the_tree(tree: Path, tmp_path: Path) -> None:
    out = tmp_path / "hip"
    assert run_cli(str(tree), "--out-dir", str(out), "--rocm", "5.2") == 0
    written = sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file())
    assert written == ["kernels/half.cuh", "kernels/k.hip", "main.cpp", "notes.txt"]
    assert "#include <hip/hip_fp16.h>" in (out / "kernels" / "half.cuh").read_text()
    assert (out / "notes.txt").read_text() == "cudaMalloc is not code here\n"  # copied, not translated
    assert (out / "main.cpp").read_text() == "#include <hip/hip_runtime.h>\nint main() { return hipSuccess; }\n"


def test_jobs_give_the_same_tree(tree: Path, tmp_path: Path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    assert run_cli(str(tree), "--out-dir", str(one), "--rocm", "5.2") == 0
    assert run_cli(str(tree), "--out-dir", str(two), "--rocm", "5.2", "--jobs", "2") == 0
    for path in one.rglob("*.*"):
        assert path.read_bytes() == (two / path.relative_to(one)).read_bytes()


def test_in_place_is_atomic_and_keeps_the_first_original(tmp_path: Path) -> None:
    path = tmp_path / "k.cu"
    path.write_text(KERNEL)
    path.chmod(0o640)
    plain = tmp_path / "plain.cpp"
    plain.write_text("int main() { return 0; }\n")
    assert run_cli(str(path), str(plain), "--in-place", "--rocm", "5.2") == 0
    assert "hipDeviceSynchronize" in path.read_text()
    assert (tmp_path / "k.cu.prehip").read_text() == KERNEL
    assert path.stat().st_mode & 0o777 == 0o640
    assert not (tmp_path / "plain.cpp.prehip").exists()  # unchanged files are not rewritten
    assert sorted(p.name for p in tmp_path.iterdir()) == ["k.cu", "k.cu.prehip", "plain.cpp"]
    assert run_cli(str(path), "--in-place", "--rocm", "5.2") == 0
    assert (tmp_path / "k.cu.prehip").read_text() == KERNEL


def test_unsupported_constructs_are_reported_and_the_output_still_written(tmp_path: Path) -> None:
    path = tmp_path / "u.cu"
    path.write_text(UNSUPPORTED)
    out = tmp_path / "u.hip"
    done = command(str(path), "-o", str(out), "--rocm", "5.2")
    assert done.returncode == 0, done.stderr.decode()
    assert out.read_text().startswith("#include <hip/hip_runtime.h>")
    err = done.stderr.decode()
    assert f"{path}:2:12: error: cudaDeviceFlushGPUDirectRDMAWrites (CUDA 11.3) has no HIP equivalent" in err
    assert "remain untranslated or unsupported" in err


def test_strict_gives_exit_status_1_for_unsupported_constructs_only(tmp_path: Path) -> None:
    bad, good = tmp_path / "u.cu", tmp_path / "k.cu"
    bad.write_text(UNSUPPORTED)
    good.write_text(KERNEL)
    done = command(str(bad), "-o", str(tmp_path / "u.hip"), "--rocm", "5.2", "--strict")
    assert done.returncode == 1
    assert (tmp_path / "u.hip").exists()  # strict changes the status, not what is written
    assert "has no HIP equivalent" in done.stderr.decode()
    assert run_cli(str(good), "-o", str(tmp_path / "k.hip"), "--rocm", "5.2", "--strict") == 0


def test_json_summary(tmp_path: Path) -> None:
    path = tmp_path / "u.cu"
    path.write_text(UNSUPPORTED)
    done = command(str(path), "--json", "--rocm", "5.2", "--arch", "gfx942")
    assert done.returncode == 0
    summary = msgspec.json.decode(done.stdout, type=Summary)
    assert (summary.arch, summary.rocm, summary.files, summary.unsupported) == ("gfx942", "5.2", 1, 3)
    report = summary.reports[0]
    assert report.text is not None and report.text.startswith("#include <hip/hip_runtime.h>")
    assert {(f.code, f.line) for f in report.findings} == {("unsupported-api", 2)}


def test_reverse_renames_hip_files_back(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    (src / "k.hip").write_text("#include <hip/hip_runtime.h>\nvoid f() { (void)hipDeviceSynchronize(); }\n")
    out = tmp_path / "cuda"
    done = command(str(src), "--out-dir", str(out), "--reverse")
    assert done.returncode == 0, done.stderr.decode()
    assert (out / "k.cu").read_text() == "#include <cuda_runtime.h>\nvoid f() { (void)cudaDeviceSynchronize(); }\n"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["missing.cu"], "missing.cu: no such file or directory"),
        (["a.cu", "b.cu"], "several inputs need --out-dir or --in-place"),
        (["a.cu", "b.cu", "-o", "x.hip"], "-o needs exactly one input file"),
        (["a.cu", "--arch", "sm_90"], "unknown GPU arch 'sm_90'"),
        (["a.cu", "--rocm", "new"], "bad ROCm version 'new'"),
        (["a.cu", "--jobs", "0"], "--jobs must be at least 1"),
    ],
)
def test_usage_errors_give_exit_status_2(tmp_path: Path, argv: list[str], message: str) -> None:
    for name in ("a.cu", "b.cu"):
        (tmp_path / name).write_text(KERNEL)
    done = command(*argv, cwd=tmp_path)
    assert done.returncode == 2
    assert message in done.stderr.decode()


def test_unwritable_output_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "k.cu"
    path.write_text(KERNEL)
    blocker = tmp_path / "file"
    blocker.write_text("")
    done = command(str(path), "-o", str(blocker / "k.hip"))
    assert done.returncode == 2
    assert "k.hip" in done.stderr.decode()


def test_start_up_imports_stay_lazy() -> None:
    code = ("import sys\nfrom cass_lsp.cli.translate import main\n"
            "print(sorted(m for m in ('msgspec', 'pygls', 'lsprotocol', 'cass_lsp.translate.findings') "
            "if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60, check=True,
                          env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    assert done.stdout.decode().strip() == "[]"


SECRET_MARK = "cass-secret-key-4b1d"


@pytest.fixture
def linked_tree(tree: Path) -> tuple[Path, Path]:
    """The tree with a repository's links: ``kernels.cu`` and ``data.txt`` name a secret outside it
    (CUDA text, so that a translation would carry it), ``alias.cuh`` names a header of the tree."""
    secret = tree.parent / "id_ed25519"
    secret.write_text(f"// {SECRET_MARK}\n" + KERNEL)
    (tree / "kernels.cu").symlink_to(secret)
    (tree / "data.txt").symlink_to(secret)
    (tree / "alias.cuh").symlink_to(Path("kernels") / "half.cuh")
    return tree, secret


def holding(folder: Path, text: str) -> list[Path]:
    """The regular files under ``folder`` that hold ``text``."""
    return [p for p in folder.rglob("*") if p.is_file() and not p.is_symlink() and text in p.read_text(errors="replace")]


def test_out_dir_never_writes_what_a_link_out_of_the_tree_names(linked_tree: tuple[Path, Path], tmp_path: Path) -> None:
    tree, secret = linked_tree
    out = tmp_path / "out"
    done = command(str(tree), "--out-dir", str(out), "--rocm", "5.2")
    assert done.returncode == 0, done.stderr
    assert holding(out, SECRET_MARK) == []
    assert not (out / "kernels.hip").exists() and not (out / "kernels.cu").exists()
    assert b"kernels.cu:1:1: warning: a symbolic link: left alone, its target not read [symlink]" in done.stderr
    assert (out / "data.txt").is_symlink() and os.readlink(out / "data.txt") == str(secret)
    assert (out / "alias.cuh").is_symlink()
    assert (out / "alias.cuh").resolve() == (out / "kernels" / "half.cuh").resolve()
    assert (out / "k.cu").exists() is False and (out / "kernels" / "k.hip").is_file()  # the rest is ported


def test_in_place_leaves_links_alone(linked_tree: tuple[Path, Path]) -> None:
    tree, secret = linked_tree
    before = secret.read_text()
    done = command(str(tree), "--in-place", "--rocm", "5.2")
    assert done.returncode == 0, done.stderr
    for name in ("kernels.cu", "data.txt", "alias.cuh"):
        assert (tree / name).is_symlink(), name
        assert not (tree / f"{name}{cli.BACKUP_SUFFIX}").exists() and not (tree / f"{name}{cli.BACKUP_SUFFIX}").is_symlink()
    assert secret.read_text() == before
    assert "hipDeviceSynchronize" in (tree / "kernels" / "k.cu").read_text()  # the tree's own files are ported
    named = command(str(tree / "kernels.cu"), "--in-place", "--rocm", "5.2")  # a link named on the command line
    assert named.returncode == 0, named.stderr
    assert (tree / "kernels.cu").is_symlink() and secret.read_text() == before


def test_a_file_copied_into_out_dir_is_not_written_through_an_old_link(tree: Path, tmp_path: Path) -> None:
    victim = tmp_path / "bashrc"
    victim.write_text("# bashrc\n")
    out = tmp_path / "out"
    out.mkdir()
    (out / "notes.txt").symlink_to(victim)  # left by an earlier port of the tree, when notes.txt was a link
    done = command(str(tree), "--out-dir", str(out), "--rocm", "5.2")
    assert done.returncode == 0, done.stderr
    assert victim.read_text() == "# bashrc\n"
    assert not (out / "notes.txt").is_symlink() and (out / "notes.txt").read_text() == (tree / "notes.txt").read_text()


def test_file_names_and_findings_reach_the_terminal_escaped(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    (src / "k\x1b]0;owned\x07\x1b[2J.cu").write_text(UNSUPPORTED)
    done = command(str(src), "--out-dir", str(tmp_path / "out"), "--rocm", "5.2")
    assert done.returncode == 0, done.stderr
    assert b"k\\x1b]0;owned\\x07\\x1b[2J.cu:2:" in done.stderr, done.stderr
    assert b"\x1b" not in done.stderr and b"\x07" not in done.stderr
