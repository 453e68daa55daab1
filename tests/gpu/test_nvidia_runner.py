"""On a machine with an NVIDIA GPU: corpus programs and their rule translations built for the GPU
(the translation through the HIP-on-NVIDIA header), run in the sandbox, and compared.

Without a GPU these tests skip (there is nothing to run them on); everything else about the run
stage is tested with the CPU runner in tests/toolchain/test_verify_cli.py. Timings are printed, not
asserted: `pytest -s tests/gpu` on the GPU machine shows them (see tests/gpu/run_on_device.sh).
"""

from __future__ import annotations

import time

import pytest

from cass_lsp.core import pairs
from cass_lsp.services.settings import resolve_cli
from cass_lsp.verify import engine, runners
from cass_lsp.verify import run as run_stage
from tests.corpus.manifest import PROGRAMS_DIR

pytestmark = pytest.mark.skipif(not runners.nvidia_gpu(), reason="no NVIDIA GPU device (/dev/nvidia*) on this machine")

# self-checking programs of the corpus that need no CUDA library
PROGRAMS = [
    "vector_add_checked.cu",
    "transpose_tiled.cu",
    "block_scan_dynamic_smem.cu",
    "warp_reduce_sum.cu",
    "histogram_atomics.cu",
    "constant_memory_fir.cu",
    "kmeans_step.cu",
    "nbody_main.cu",
    "math_intrinsics.cu",
    "launch_bounds_stencil.cu",
]


@pytest.mark.parametrize("program", PROGRAMS)
def test_original_and_rule_translation_agree_on_the_gpu(program: str) -> None:
    resolved = resolve_cli(
        target={"rocm": "7.1"},
        verification={"run": True, "runner": "nvidia", "nvidiaArch": "sm_90", "limits": {"timeoutSeconds": 60}},
    )
    pair = pairs.Pair(str(PROGRAMS_DIR / program), None)
    started = time.monotonic()
    # the run stage alone: the GPU machine needs nvcc only (the compile stages' clang-19 is tested on CPU)
    (plan,) = run_stage.plan_runs(engine.read_inputs(pair, {}, resolved), resolved, "nvidia")
    ran = run_stage.run_programs(plan)
    print(f"\n{program}: {ran.outcome} in {time.monotonic() - started:.1f} s: {ran.message}")
    assert ran.outcome == "passed", ran
