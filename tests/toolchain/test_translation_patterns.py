"""Issue 19's translation patterns at the command line: the CLI says what is wrong and exits 2 (in its own
process); the pattern checks themselves are in tests/unit/test_translation_patterns.py."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def test_the_cli_says_what_is_wrong_and_exits_2(tmp_path: Path) -> None:
    original = tmp_path / "k.cu"
    original.write_text("__global__ void k() {}\n")
    result = subprocess.run(
        [sys.executable, "-m", "cass_lsp", "verify", str(original), "--pattern", "{foo}.hip"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert "{foo} is not a placeholder" in result.stderr
