"""A repository's build database attacking the user through the flags verification takes from it, with
the real nvcc, gcc and `cass-lsp verify` (issue #26): nothing of the repository's may run outside the
sandbox, and what is left out is named in the verdict."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

CLI = [sys.executable, "-m", "cass_lsp"]
MAIN = """#if 0
#include "evil/lib64/libnvvm.so"
#endif
#include <cstdio>
__global__ void k(int *x) { *x = 1; }
int main() { std::printf("hello\\n"); return 0; }
"""


def _library(path: Path, marker: Path) -> None:
    """A shared library whose constructor writes ``marker``: it ran if the file exists."""
    source = path.with_suffix(".c")
    source.write_text(
        "#include <stdio.h>\n"
        "__attribute__((constructor)) static void ran(void) {\n"
        f'  FILE *f = fopen("{marker}", "w"); if (f) {{ fputs("ran", f); fclose(f); }}\n'
        "}\n"
    )
    subprocess.run(["gcc", "-shared", "-fPIC", "-o", str(path), str(source)], check=True, timeout=60)
    source.unlink()


def test_a_build_database_cannot_make_nvlink_load_a_library_from_the_repository(tmp_path: Path) -> None:
    """nvlink's --nvvmpath with -lto loads DIR/lib64/libnvvm.so; a "header" inside #if 0 is copied byte
    for byte into the build folder, nvlink's working directory: the library's constructor ran as the
    user. nvcc also runs its tools through a shell, so a -D value's $(...) ran too."""
    repo = tmp_path / "repo"
    (repo / "evil" / "lib64").mkdir(parents=True)
    nvlink_marker, shell_marker = tmp_path / "nvlink-ran", tmp_path / "shell-ran"
    _library(repo / "evil" / "lib64" / "libnvvm.so", nvlink_marker)
    (repo / "main.cu").write_text(MAIN)
    arguments = ["nvcc", "-Xnvlink", "--nvvmpath=src/evil,-lto", f"-DSHELL=$(touch {shell_marker})", "-c", "main.cu"]
    (repo / "compile_commands.json").write_text(json.dumps([{"directory": str(repo), "file": "main.cu", "arguments": arguments}]))
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    result = subprocess.run(
        [*CLI, "verify", "--no-cache", str(repo / "main.cu"), "--runner", "command", "--command", "/bin/echo", "{exe}",
         "--build-for", "nvidia"],
        capture_output=True, text=True, timeout=600, check=False, env=env, cwd=tmp_path,
    )
    out = result.stdout + result.stderr
    assert not nvlink_marker.exists(), out
    assert not shell_marker.exists(), out
    assert "-Xnvlink --nvvmpath=src/evil: loads code from a path of the build's choosing" in out, out
    assert "-Xnvlink -lto: not on the list of nvlink options passed on" in out, out
    assert f"-DSHELL=$(touch {shell_marker}): nvcc runs its tools through a shell" in out, out
    assert "the original compiles with nvcc" in out, out


def test_a_response_file_naming_the_servers_own_input_is_refused_and_verification_finishes(tmp_path: Path) -> None:
    """`@/dev/stdin` in compile_commands.json made verification read the process's own input (the
    server's LSP stream): it never finished, and the client's `exit` was swallowed."""
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "main.cu").write_text("int main() { return 0; }\n")
    arguments = ["nvcc", "@/dev/stdin", "-c", "main.cu"]
    (repo / "compile_commands.json").write_text(json.dumps([{"directory": str(repo), "file": "main.cu", "arguments": arguments}]))
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    log = tmp_path / "verify.log"
    with log.open("w") as written, subprocess.Popen(
        [*CLI, "verify", "--no-cache", str(repo / "main.cu"), "--runner", "none"], stdin=subprocess.PIPE, stdout=written,
        stderr=subprocess.STDOUT, env=env, cwd=tmp_path,
    ) as verify:
        try:
            verify.wait(timeout=180)  # stdin stays open and says nothing, as an idle client's
        except subprocess.TimeoutExpired:
            verify.kill()
            raise AssertionError("verification never finished: it read its own standard input") from None
    out = log.read_text()
    assert f"@/dev/stdin: response file not read (outside the project {repo})" in out, out


def test_response_files_are_read_only_from_the_build_databases_folder(tmp_path: Path) -> None:
    """CMake writes includes_CUDA.rsp in its build folder, beside compile_commands.json: it is read.
    One elsewhere is not, whatever the entry's "directory" says."""
    from cass_lsp.compile import program
    from cass_lsp.compile.nvcc_flags import Flags

    repo, build = tmp_path / "repo", tmp_path / "repo" / "build"
    (build / "CMakeFiles").mkdir(parents=True)
    (repo / "main.cu").write_text("int main() { return 0; }\n")
    (build / "CMakeFiles" / "includes_CUDA.rsp").write_text(f"-I{repo / 'include'}\n")
    (tmp_path / "secret.rsp").write_text("-DSECRET_LINE\n")
    entry = {"directory": str(build), "file": "../main.cu",
             "arguments": ["nvcc", "--options-file", "CMakeFiles/includes_CUDA.rsp", "@../../secret.rsp", "-c", "../main.cu"]}
    (build / "compile_commands.json").write_text(json.dumps([entry]))
    found = program.of_file(str(repo / "main.cu"), [])
    flags = found.flags(found.units[0], Flags())
    assert flags.nvcc == (f"-I{repo / 'include'}",)
    assert flags.dropped == (f"@../../secret.rsp: response file not read (outside the project {build})",)


def test_a_projects_response_files_are_read_from_its_own_build_folder(tmp_path: Path) -> None:
    """`verify --project`: a Makefile's units take their flags from `make -n`, a response file there is
    the project's when it lies in the project's folder; CMake's lie in its (scratch) build folder."""
    from cass_lsp.compile import nvcc_flags
    from cass_lsp.verify import discovery as introspect

    (tmp_path / "flags.rsp").write_text("-DFROM_RSP=1\n")
    printed = f"make: Entering directory '{tmp_path}'\nnvcc @flags.rsp @/etc/hostname -o app main.cu\n"
    [app] = introspect._make_executables(printed, tmp_path)
    source = app.sources[0]
    flags = nvcc_flags.split(source.arguments, source.directory, source.project)
    assert flags.nvcc == ("-DFROM_RSP=1",)
    assert flags.dropped == (f"@/etc/hostname: response file not read (outside the project {tmp_path})",)
    build = tmp_path / "scratch-build"
    build.mkdir()
    entry = {"directory": str(build), "file": str(tmp_path / "main.cu"), "arguments": ["nvcc", "@../flags.rsp", "-c", "main.cu"]}
    (build / "compile_commands.json").write_text(json.dumps([entry]))
    source = introspect._source(str(tmp_path / "main.cu"), build / "compile_commands.json")
    flags = nvcc_flags.split(source.arguments, source.directory, source.project)
    assert flags.dropped == (f"@../flags.rsp: response file not read (outside the project {build})",)


def test_a_listings_flags_pass_the_same_filter(tmp_path: Path) -> None:
    """Listings took -D values from compile_commands.json as they were: nvcc's shell ran a $(...) in one
    on opening the file, workspace trusted or not."""
    from cass_lsp.asm import jobs as asm_jobs
    from cass_lsp.asm.listing import Listing
    from cass_lsp.services.settings import resolve_cli

    marker = tmp_path / "shell-ran"
    source = "__global__ void k(float* x) { x[threadIdx.x] *= SCALE; }\n"
    (tmp_path / "k.cu").write_text(source)
    arguments = ["nvcc", "-DSCALE=2.0f", f"-DSHELL=$(touch {marker})", "-c", "k.cu"]
    (tmp_path / "compile_commands.json").write_text(json.dumps([{"directory": str(tmp_path), "file": "k.cu", "arguments": arguments}]))
    result = asm_jobs.build_listing(resolve_cli(asm={"timeoutSeconds": 300}), source, str(tmp_path / "k.cu"), "sm_90")
    assert isinstance(result, Listing), result
    assert not marker.exists()
