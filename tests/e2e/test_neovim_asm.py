"""End to end: :CassAsm in a real headless Neovim with the project's plugin and the real server and
compilers: the split, cursor-follow highlighting and <CR> back to the source."""

from __future__ import annotations

import json
from pathlib import Path

from tests.e2e.headless import failed_steps, gone, run_driver
from tests.e2e.test_neovim import PROGRAM


def test_cass_asm_follows_the_cursor(tmp_path: Path) -> None:
    cu_file = tmp_path / "sum.cu"
    cu_file.write_text(PROGRAM)
    result, returncode = run_driver("asm_driver.lua", tmp_path, {"CU_FILE": str(cu_file)}, timeout=50)
    assert not failed_steps(result), json.dumps(failed_steps(result), indent=2)[:4000]
    assert [s["name"] for s in result["steps"]] == [
        "server_started",
        "returns_at_once",
        "split_opened",
        "sass_and_rdna3",
        "follow_syncthreads",
        "follow_atomic_add",
        "enter_jumps_to_source",
        "refresh_reuses_view",
        "wipe_removes_follow",
    ]
    assert returncode == 0
    assert gone(result["server_pid"]), "the server outlived Neovim"
