"""A GGUF header with thousands of nested arrays is an error for `cass-lsp models check` in its own process, not a
crash (issue 19); the reader's other regression tests are in tests/unit/test_gguf_defects.py."""

from __future__ import annotations

import struct
import subprocess
import sys
from pathlib import Path

import pytest

from cass_lsp.infer.gguf_file import GgufError, read
from tests.unit.test_gguf_defects import ARRAY, UINT8, string, write


def test_arrays_nested_thousands_deep_are_an_error_not_a_crash(tmp_path: Path) -> None:
    nested = (
        string("evil") + struct.pack("<I", ARRAY) + struct.pack("<IQ", ARRAY, 1) * 5000 + struct.pack("<IQ", UINT8, 0)
    )
    path = tmp_path / "nested.gguf"
    write(path, [nested])
    with pytest.raises(
        GgufError, match=r"corrupt GGUF header .*arrays nested more than \d+ deep in metadata key 'evil'"
    ):
        read(path)
    result = subprocess.run(
        [sys.executable, "-m", "cass_lsp", "models", "check", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 1
    assert "Traceback" not in result.stderr and "RecursionError" not in result.stderr + result.stdout
    assert "nested" in result.stdout + result.stderr
