"""Programs shaped like real ones (several units, a header, build flags, input files) that the
toolchain tier verifies through the CLI, and the two helpers those tests share."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cass_lsp.cli import main as cli

HERE = Path(__file__).parent


def verify(capsys: pytest.CaptureFixture[str], *argv: str, cache: bool = False) -> tuple[int, str]:
    """``cass-lsp verify`` against the ROCm 7.1 headers (no cache unless ``cache``): exit code, stdout."""
    code = cli.main(["verify", "--rocm", "7.1", *(() if cache else ("--no-cache",)), *argv])
    return code, capsys.readouterr().out


def copied(name: str, folder: Path) -> Path:
    """A fresh copy of the program ``name`` under ``folder``, for a test to change."""
    copy = folder / name
    shutil.copytree(HERE / name, copy)
    return copy
