"""End to end: :CassModel in a real headless Neovim: the models `cass-lsp models list` knows, the pick
pushed to the running server, and its "(CASS model)" code actions. The model is the tiny GGUF the
project generates, added the way a user adds one, into a private config folder."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.e2e.headless import failed_steps, gone, run_driver
from tests.lsp.test_model_lsp import CUDA

NAME = "cass-tiny-test"


def _add_tiny_model(folder: Path, env: dict[str, str]) -> None:
    gguf = folder / f"{NAME}.gguf"
    full_env = {**os.environ, **env}
    for argv in (
        [sys.executable, "-m", "cass_lsp.infer.tiny_model", str(gguf)],
        [sys.executable, "-m", "cass_lsp", "models", "add", str(gguf), "--name", NAME, "--role", "src"],
    ):
        subprocess.run(argv, env=full_env, check=True, capture_output=True, timeout=60)


def test_cass_model_picks_the_model(tmp_path: Path) -> None:
    env = {"CASS_LSP_CONFIG_DIR": str(tmp_path / "config")}
    _add_tiny_model(tmp_path, env)
    cu_file = tmp_path / "saxpy.cu"
    cu_file.write_text(CUDA)
    env |= {"CU_FILE": str(cu_file), "MODEL_NAME": NAME}
    result, returncode = run_driver("select_model_driver.lua", tmp_path, env, timeout=50)
    assert not failed_steps(result), json.dumps(failed_steps(result), indent=2)[:4000]
    assert [s["name"] for s in result["steps"]] == [
        "server_started",
        "no_model_actions_before",
        "returns_at_once",
        "models_listed",
        "setting_set",
        "model_actions_offered",
        "not_added_refused",
    ]
    assert returncode == 0
    assert gone(result["server_pid"]), "the server outlived Neovim"
