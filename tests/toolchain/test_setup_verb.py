"""`cass-lsp setup` with the real clang-19 / llvm-as-19 making the device libraries, and what it says the system
must provide; the user-level steps and the install hints are tested in tests/unit/test_setup_verb.py."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from cass_lsp.toolchains import amd, devlibs, distro


def _setup(cache: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cass_lsp", "setup", *args],
        env={**os.environ, "CASS_LSP_CACHE_DIR": str(cache), **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_setup_makes_the_device_libraries_once(tmp_path: Path) -> None:
    first = _setup(tmp_path, "--only", "devlibs")
    assert first.returncode == 0, first.stderr
    folder = tmp_path / "amdgcn-19" / "bitcode"
    assert devlibs.isa_file(folder, "gfx1100").is_file()
    assert "generated ISA bitcode for gfx1100" in first.stderr
    assert "[1/1 gfx11/gfx12/gfx942 device libraries: ready]" in first.stderr
    marker = (folder / devlibs.MARKER).stat().st_mtime_ns
    second = _setup(tmp_path, "--only", "devlibs")
    assert second.returncode == 0, second.stderr
    assert "already in" in second.stderr and "generated" not in second.stderr
    assert (folder / devlibs.MARKER).stat().st_mtime_ns == marker
    assert "setup: ready" in second.stderr


def test_setup_says_what_the_system_must_provide(tmp_path: Path) -> None:
    # an LLVM folder without clang: the step cannot be done, and setup says which command installs it
    empty = tmp_path / "llvm"
    empty.mkdir()
    result = _setup(tmp_path / "cache", "--only", "devlibs", CASS_LSP_LLVM_DIR=str(empty))
    assert result.returncode == 1
    hint = distro.hint(amd.CLANG_HINT)
    assert f"device libraries: not done: clang++-19 not found; install with: {hint}" in result.stderr
    assert "only the system can provide these" in result.stderr
    assert f"clang++-19: {hint}" in result.stderr
    assert not (tmp_path / "cache" / "amdgcn-19").exists()
