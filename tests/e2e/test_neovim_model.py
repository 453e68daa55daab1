"""End to end: the CASS model path in a real headless Neovim through the plugin, with the tiny GGUF
the project generates (the flow a user with a real CASS GGUF follows)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from cass_lsp.infer.tiny_model import write_tiny_model
from tests.lsp.test_model_lsp import CUDA, HIP_KERNEL, fenced

REPO = Path(__file__).resolve().parents[2]


def test_translate_kernel_with_the_model_in_neovim(tmp_path: Path) -> None:
    nvim = shutil.which("nvim")
    assert nvim, "Neovim is not installed: scripts/setup.sh installs Debian's neovim"
    model = tmp_path / "cass-tiny.gguf"
    write_tiny_model(model, fenced(HIP_KERNEL))
    cu_file = tmp_path / "saxpy.cu"
    cu_file.write_text(CUDA)
    result_file = tmp_path / "result.json"
    env = {
        **os.environ,
        "CASS_PLUGIN": str(REPO / "editor_clients" / "nvim"),
        "CASS_PYTHON": sys.executable,
        "CU_FILE": str(cu_file),
        "MODEL": str(model),
        "RESULT": str(result_file),
        "HOME": str(tmp_path),
        "CASS_LSP_CONFIG_DIR": str(tmp_path / "config"),
        "OMP_WAIT_POLICY": "PASSIVE",
    }
    driver = Path(__file__).with_name("model_driver.lua")
    proc = subprocess.run(
        [nvim, "--headless", "-n", "-i", "NONE", "-u", str(driver)],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result_file.exists(), f"nvim wrote no result (rc={proc.returncode}): {proc.stderr[-2000:]}"
    result = json.loads(result_file.read_text())
    failed = [s for s in result["steps"] if not s["ok"]]
    assert not failed, json.dumps(failed, indent=2)[:4000]
    assert [s["name"] for s in result["steps"]] == [
        "server_started",
        "model_action_applied",
        "progress_streamed",
        "compiles",
        "kernel_from_the_model",
    ]
    assert cu_file.read_text() == CUDA.replace(CUDA[CUDA.index("__global__") : CUDA.index("\n\nint main")], HIP_KERNEL)
    assert proc.returncode == 0
