"""End to end: a real headless Neovim with the project's Lua plugin, talking to the real server."""

from __future__ import annotations

import json
from pathlib import Path

from tests.e2e.headless import failed_steps, run_driver

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
    cu_file = tmp_path / "sum.cu"
    cu_file.write_text(PROGRAM)
    result, returncode = run_driver("driver.lua", tmp_path, {"CU_FILE": str(cu_file)}, timeout=600)
    assert not failed_steps(result), json.dumps(failed_steps(result), indent=2)[:4000]
    names = [s["name"] for s in result["steps"]]
    assert names == [
        "filetype",
        "server_started",
        "inline_ptx_diagnostic",
        "assembly_hover",
        "show_assembly_returns_at_once",
        "show_assembly",
        "translate_file_action",
        "file_translated",
    ]
    assert returncode == 0
