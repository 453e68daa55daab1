"""End to end: the CASS model path in a real headless Neovim through the plugin, with the tiny GGUF
the project generates (the flow a user with a real CASS GGUF follows)."""

from __future__ import annotations

import json
from pathlib import Path

from cass_lsp.infer.tiny_model import write_tiny_model
from tests.e2e.headless import failed_steps, run_driver
from tests.lsp.test_model_lsp import CUDA, HIP_KERNEL, fenced


def test_translate_kernel_with_the_model_in_neovim(tmp_path: Path) -> None:
    model = tmp_path / "cass-tiny.gguf"
    write_tiny_model(model, fenced(HIP_KERNEL))
    cu_file = tmp_path / "saxpy.cu"
    cu_file.write_text(CUDA)
    env = {
        "CU_FILE": str(cu_file),
        "MODEL": str(model),
        "CASS_LSP_CONFIG_DIR": str(tmp_path / "config"),
        "OMP_WAIT_POLICY": "PASSIVE",
    }
    result, returncode = run_driver("model_driver.lua", tmp_path, env, timeout=300)
    assert not failed_steps(result), json.dumps(failed_steps(result), indent=2)[:4000]
    assert [s["name"] for s in result["steps"]] == [
        "server_started",
        "model_action_applied",
        "progress_streamed",
        "compiles",
        "kernel_from_the_model",
    ]
    assert cu_file.read_text() == CUDA.replace(CUDA[CUDA.index("__global__") : CUDA.index("\n\nint main")], HIP_KERNEL)
    assert returncode == 0
