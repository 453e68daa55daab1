"""Running a Lua driver in a real headless Neovim (Debian's) with the project's plugin loaded."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from cass_lsp.core.dirs import CACHE_ENV, cache_root

REPO = Path(__file__).resolve().parents[2]


def run_driver(driver: str, home: Path, env: dict[str, str], timeout: float) -> tuple[dict[str, Any], int]:
    """Run ``tests/e2e/<driver>`` with a private HOME; returns the JSON it wrote to $RESULT and
    Neovim's exit status. On a timeout, subprocess.run kills Neovim before raising."""
    nvim = shutil.which("nvim")
    assert nvim, "Neovim is not installed: scripts/setup.sh installs Debian's neovim"
    result_file = home / "result.json"
    full_env = {
        **os.environ,
        "CASS_PLUGIN": str(REPO / "editor_clients" / "nvim"),
        "CASS_PYTHON": sys.executable,
        "RESULT": str(result_file),
        "E2E_DIR": str(Path(__file__).parent),  # where the drivers find harness.lua
        "HOME": str(home),  # no user config, shada or swap files from the machine
        # ...but the toolchain files setup generated (ROCm 7.1 headers, device libraries) stay found
        CACHE_ENV: str(cache_root()),
        **env,
    }
    proc = subprocess.run(
        [nvim, "--headless", "-n", "-i", "NONE", "-u", str(Path(__file__).with_name(driver))],
        env=full_env,
        cwd=home,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert result_file.exists(), f"nvim wrote no result (rc={proc.returncode}): {proc.stderr[-2000:]}"
    return json.loads(result_file.read_text()), proc.returncode


def failed_steps(result: dict[str, Any]) -> list[dict[str, Any]]:
    return [s for s in result["steps"] if not s["ok"]]


def gone(pid: int, within: float = 10.0) -> bool:
    """Whether process ``pid`` (a server the driver recorded) has exited, waiting up to ``within`` s."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.1)
    return False
