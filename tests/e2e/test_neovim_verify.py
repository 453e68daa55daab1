"""Headless Neovim with the plugin: saving a broken .hip translation shows the cass-verify
diagnostic on its line (real nvcc and clang-19 behind it), :CassVerify answers, fixing clears."""

from __future__ import annotations

import json
from pathlib import Path

from tests.e2e.headless import failed_steps, run_driver
from tests.lsp.test_verification_lsp import BROKEN, BROKEN_LINE, ORIGINAL


def test_saving_a_broken_translation_in_neovim(tmp_path: Path) -> None:
    (tmp_path / "scale.cu").write_text(ORIGINAL.format(tag="nvim"))
    hip = tmp_path / "scale.hip"
    hip.write_text(BROKEN.format(tag="nvim"))
    env = {"HIP_FILE": str(hip), "BROKEN_LINE": str(BROKEN_LINE + 1)}
    result, returncode = run_driver("verify_driver.lua", tmp_path, env, timeout=400)
    assert not failed_steps(result), json.dumps(failed_steps(result), indent=2)[:4000]
    assert [s["name"] for s in result["steps"]] == [
        "filetype",
        "server_started",
        "diagnostic_on_the_broken_line",
        "status_failed",
        "verify_command",
        "fixed_and_cleared",
    ]
    assert returncode == 0
    assert "hipDeviceSynchronize();" in hip.read_text()
