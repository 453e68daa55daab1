"""The Neovim plugin's project root, computed by the real headless Neovim: the folder that holds the marker."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.e2e.headless import run_driver

MARKERS = ("compile_commands.json", ".git")  # the plugin's default root_markers, in its order


def _git_dir(folder: Path) -> None:
    (folder / ".git").mkdir(parents=True)
    (folder / ".git" / "HEAD").write_text("ref: refs/heads/main\n")


def _file(path: Path, text: str = "__global__ void k() {}\n") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def _layout(base: Path) -> dict[Path, Path]:
    """Projects under base; each source file mapped to the root the plugin must pick for it."""
    cases: dict[Path, Path] = {}

    # (a) compile_commands.json at the project root (a file marker), for a nested and a top-level file
    a = base / "a"
    _file(a / "compile_commands.json", "[]\n")
    cases[_file(a / "src" / "deep" / "k.cu")] = a
    cases[_file(a / "top.cu")] = a

    # (b) a .git directory at the project root (a directory marker)
    b = base / "b"
    _git_dir(b)
    cases[_file(b / "src" / "k.cu")] = b
    cases[_file(b / "top.cu")] = b

    # (b') .git as a file, as in a git worktree or submodule checkout
    bf = base / "worktree"
    _file(bf / ".git", "gitdir: /elsewhere/.git/worktrees/wt\n")
    cases[_file(bf / "src" / "k.cu")] = bf

    # (c) both at different levels. The markers are tried in the order of root_markers, each searched
    # upward from the file: compile_commands.json, where the build is described, wins over .git wherever
    # it is; .git counts only when no database is above the file.
    c1 = base / "c1"  # the database is the nearer marker: its folder
    _git_dir(c1)
    _file(c1 / "sub" / "compile_commands.json", "[]\n")
    cases[_file(c1 / "sub" / "src" / "k.cu")] = c1 / "sub"
    cases[_file(c1 / "other" / "k.cu")] = c1  # beside the database, not under it: the .git folder
    c2 = base / "c2"  # a nearer .git (a vendored repository) does not outrank the project's database
    _file(c2 / "compile_commands.json", "[]\n")
    _git_dir(c2 / "vendor" / "lib")
    cases[_file(c2 / "vendor" / "lib" / "src" / "k.cu")] = c2

    # (d) no marker anywhere above: the file's own folder
    d = base / "d"
    cases[_file(d / "src" / "k.cu")] = d / "src"

    # a project folder whose name has a space and a comma (special in findfile()'s path argument)
    e = base / "my project, v2"
    _git_dir(e)
    cases[_file(e / "src" / "k.cu")] = e
    return cases


def test_root_dir_is_the_folder_holding_the_marker(tmp_path: Path) -> None:
    base = tmp_path.resolve()
    stray = [p / m for p in base.parents for m in MARKERS if (p / m).exists()]
    if stray:
        pytest.skip(f"a root marker above the temporary folder would take part: {stray}")
    cases = _layout(base / "projects")
    # the folder is also the current one: findfile()/finddir() answer relative to it where they can
    result, returncode = run_driver("root_dir.lua", base, {"CASES": json.dumps([str(f) for f in cases])}, timeout=20)
    assert result["ok"], result.get("error")
    wrong = {
        f"{how}: {f.relative_to(base)}": {"got": got, "want": str(root)}
        for how in ("by_name", "by_buffer")
        for f, root in cases.items()
        if (got := result[how].get(str(f))) != str(root)
    }
    assert not wrong, json.dumps(wrong, indent=1)
    assert returncode == 0
