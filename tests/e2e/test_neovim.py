"""End to end: a real headless Neovim with the project's Lua plugin, talking to the real server."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PROGRAM = """#include <cuda_runtime.h>
__global__ void block_sum(const float* in, float* out, int n) {
  __shared__ float tile[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  unsigned lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  if (threadIdx.x == 0) {
    float s = 0.0f;
    for (int k = 0; k < 256; ++k) s += tile[k];
    atomicAdd(out, s + lane);
  }
}
int main() {
  float *in, *out;
  cudaMalloc(&in, 256 * sizeof(float));
  cudaMalloc(&out, sizeof(float));
  block_sum<<<1, 256>>>(in, out, 256);
  cudaDeviceSynchronize();
  cudaFree(in);
  cudaFree(out);
  return 0;
}
"""


def test_neovim_plugin_end_to_end(tmp_path: Path) -> None:
    nvim = shutil.which("nvim")
    assert nvim, "Neovim is not installed: scripts/setup.sh installs Debian's neovim"
    cu_file = tmp_path / "sum.cu"
    cu_file.write_text(PROGRAM)
    result_file = tmp_path / "result.json"
    env = {
        **os.environ,
        "CASS_PLUGIN": str(REPO / "editor_clients" / "nvim"),
        "CASS_PYTHON": sys.executable,
        "CU_FILE": str(cu_file),
        "RESULT": str(result_file),
        "HOME": str(tmp_path),  # no user config, shada or swap files from the machine
    }
    driver = Path(__file__).with_name("driver.lua")
    proc = subprocess.run(
        [nvim, "--headless", "-n", "-i", "NONE", "-u", str(driver)],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result_file.exists(), f"nvim wrote no result (rc={proc.returncode}): {proc.stderr[-2000:]}"
    result = json.loads(result_file.read_text())
    failed = [s for s in result["steps"] if not s["ok"]]
    assert not failed, json.dumps(failed, indent=2)[:4000]
    names = [s["name"] for s in result["steps"]]
    assert names == [
        "filetype",
        "server_started",
        "inline_ptx_diagnostic",
        "assembly_hover",
        "show_assembly",
        "translate_file_action",
        "file_translated",
    ]
    assert proc.returncode == 0
