"""A repository's file and folder names attacking the user through nvcc, with the real nvcc, clang-19
and the `cass-lsp` CLI: nvcc runs its sub-tools through ``sh`` command lines, with a unit's name
unquoted or in double quotes, so a file named ``j$(touch M).cu`` ran ``touch`` when listed or
verified. ``$M`` is the marker's path, from the environment (a file name cannot hold a ``/``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cass_lsp.compile.scratch import INERT, Layout, Scratch, UnsafeName, require_inert

CLI = [sys.executable, "-m", "cass_lsp"]
KERNEL = """#include "sub$(touch $M)/twice.cuh"
__global__ void k(float* x) { x[threadIdx.x] = twice(x[threadIdx.x]); }
"""
MAIN = """#include <cstdio>
#include "k.cuh"
#include "../inc`touch $M`/scale.cuh"
__global__ void k(int *x) { *x = SCALE * twice(1); }
int main() { std::printf("hello %d\\n", SCALE); return 0; }
"""


def _env(tmp_path: Path, marker: Path) -> dict[str, str]:
    return {**os.environ, "M": str(marker), "XDG_CACHE_HOME": str(tmp_path / "cache")}


def test_a_listing_of_a_file_named_like_a_command_runs_nothing_and_names_the_file(tmp_path: Path) -> None:
    marker = tmp_path / "shell-ran"
    folder = tmp_path / "repo$(touch $M)"
    (folder / "sub$(touch $M)").mkdir(parents=True)
    source = folder / "j$(touch $M).cu"
    source.write_text(KERNEL)
    (folder / "sub$(touch $M)" / "twice.cuh").write_text("__device__ inline float twice(float v) { return 2.0f * v; }\n")
    result = subprocess.run(
        [*CLI, "asm", str(source), "--target", "sm_90", "--target", "gfx1100", "--json", "--no-cache"],
        capture_output=True, text=True, timeout=600, check=False, env=_env(tmp_path, marker), cwd=tmp_path,
    )  # fmt: skip
    assert not marker.exists(), result.stdout + result.stderr
    results = {r["target"]: r for r in json.loads(result.stdout)["results"]}
    for target in ("sm_90", "gfx1100"):
        listing = results[target]
        assert listing["kind"] == "listing", listing
        files = {i["file"] for f in listing["functions"] for i in f["instructions"] if i["file"]}
        # the kernel's line and the header's (inlined), under the user's names
        assert str(source) in files, (target, files)
        lines = {i["line"] for f in listing["functions"] for i in f["instructions"] if i["file"] == str(source)}
        assert 2 in lines, (target, lines)


def test_a_listings_compile_error_names_the_real_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cass_lsp.asm import jobs as asm_jobs
    from cass_lsp.asm.listing import CompileFailure
    from cass_lsp.services.settings import resolve_cli

    marker = tmp_path / "shell-ran"
    source = tmp_path / "b`touch $M`.cu"
    text = "__global__ void k(float* x) {\n  x[0] = undefined_name;\n}\n"
    source.write_text(text)
    monkeypatch.setenv("M", str(marker))
    result = asm_jobs.build_listing(resolve_cli(asm={"timeoutSeconds": 300}), text, str(source), "sm_90")
    assert not marker.exists()
    assert isinstance(result, CompileFailure), result
    errors = [d for d in result.diagnostics if d.severity == "error"]
    assert errors and errors[0].file == str(source) and errors[0].line == 2, result


def _repository(tmp_path: Path, main: str = MAIN) -> Path:
    repo = tmp_path / "repo"
    (repo / "src$(touch $M)").mkdir(parents=True)
    (repo / "inc`touch $M`").mkdir()
    unit = repo / "src$(touch $M)" / "main`touch $M`.cu"
    unit.write_text(main)
    (repo / "src$(touch $M)" / "k.cuh").write_text("__device__ inline int twice(int v) { return 2 * v; }\n")
    (repo / "inc`touch $M`" / "scale.cuh").write_text("#define SCALE 3\n")
    return unit


def _verify(tmp_path: Path, unit: Path, marker: Path) -> str:
    result = subprocess.run(
        [*CLI, "verify", "--no-cache", str(unit), "--runner", "command", "--command", "/bin/echo", "{exe}",
         "--build-for", "nvidia"],
        capture_output=True, text=True, timeout=600, check=False, env=_env(tmp_path, marker), cwd=tmp_path,
    )  # fmt: skip
    return result.stdout + result.stderr


def test_a_verification_of_a_unit_and_folders_named_like_commands_runs_nothing(tmp_path: Path) -> None:
    """The unit, its folder and an included folder: nvcc --ptx (stage a), clang-19 (stage b) and the
    nvidia runner's nvcc build all compile them, and the verdict names the user's file."""
    marker = tmp_path / "shell-ran"
    unit = _repository(tmp_path)
    out = _verify(tmp_path, unit, marker)
    assert not marker.exists(), out
    assert "PASS main`touch $M`.cu" in out, out
    assert "the original compiles with nvcc" in out, out
    assert "original and translation agree" in out, out


def test_a_verifications_compile_error_names_the_real_file_and_line(tmp_path: Path) -> None:
    marker = tmp_path / "shell-ran"
    unit = _repository(tmp_path, MAIN.replace("*x = SCALE", "*x = undefined_name + SCALE"))
    out = _verify(tmp_path, unit, marker)
    assert not marker.exists(), out
    assert "nvcc rejects the original for sm_90 at main`touch $M`.cu:4" in out, out


def test_new_names_are_inert_deterministic_and_never_a_name_the_folder_has() -> None:
    taken = Layout({"a$b/u`x`.cu": True}).renamed[("a$b",)]
    # a folder that already holds the name the unsafe one would get keeps it
    layout = Layout({"a$b/u`x`.cu": True, f"{taken}/h.h": False, "a$b/k$.h": False, "ok/v.cu": True})
    assert layout.place("a$b/u`x`.cu") == layout.place("a$b/u`x`.cu")
    placed = layout.place("a$b/u`x`.cu")
    assert placed.endswith(".cu") and not placed.startswith(f"./{taken}/")
    assert layout.place(f"{taken}/h.h") == f"./{taken}/h.h"
    assert layout.place("a$b/k$.h").endswith("/k$.h")  # a header keeps the name #include says
    assert layout.place("ok/v.cu") == "./ok/v.cu"
    assert INERT.fullmatch(placed)


def test_the_way_back_names_the_users_files(tmp_path: Path) -> None:
    scratch = Scratch(str(tmp_path), Path("/w"), {})
    layout = Layout({"a$b/u`x`.cu": True, "a$b/k.h": False})
    layout.write(scratch)
    placed = os.path.normpath(tmp_path / layout.place("a$b/u`x`.cu"))
    assert scratch.map_path(placed) == "/w/a$b/u`x`.cu"
    assert scratch.map_path(os.path.join(os.path.dirname(placed), "k.h")) == "/w/a$b/k.h"
    assert scratch.unlinked(f"{placed}:3: error") == f"{tmp_path}/a$b/u`x`.cu:3: error"
    # #include "../a$b/k.h" finds the header through the link under the user's name
    (tmp_path / layout.place("a$b/k.h")).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / layout.place("a$b/k.h")).write_text("")
    assert (tmp_path / "a$b" / "k.h").is_file()


def test_a_scratch_folder_whose_own_name_is_not_inert_is_refused() -> None:
    with pytest.raises(UnsafeName, match="a file name nvcc would pass to a shell"):
        require_inert("/tmp/x$(id)")
