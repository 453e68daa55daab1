"""The cache keys of a verification's stages (no compile runs here): each is keyed by what its stage
reads, so a port edited next to an unchanged original finds the original's nvcc compile in the cache
while its own compile and the run are redone."""

from __future__ import annotations

from pathlib import Path

from cass_lsp.core.pairs import Pair
from cass_lsp.services.settings import resolve_cli
from cass_lsp.verify import engine, stages
from cass_lsp.verify import run as run_stage

KERNEL = "__global__ void k(float* x) { x[threadIdx.x] = 1.0f; }\nint main() { return 0; }\n"


def _keys(original: Path, translation: Path | None) -> tuple[str, str, str]:
    """The original's, the translation's and the CPU run's key."""
    resolved = resolve_cli(verification={"run": True, "runner": "cpu"})
    pair = Pair(str(original), str(translation) if translation else None)
    inputs = engine.read_inputs(pair, {}, resolved, explicit=True)
    [run] = run_stage.plan_runs(inputs, resolved, "cpu")
    return (stages.plan_original(inputs, resolved).key, stages.plan_translation(inputs, resolved, "gfx1100").key,
            run.key)  # fmt: skip


def test_the_originals_compile_is_keyed_by_the_original_alone(tmp_path: Path) -> None:
    original, port = tmp_path / "k.cu", tmp_path / "k.hip"
    original.write_text(KERNEL)
    rule = _keys(original, None)
    port.write_text("#include <hip/hip_runtime.h>\n" + KERNEL)
    written = _keys(original, port)
    port.write_text("#include <hip/hip_runtime.h>\n" + KERNEL.replace("1.0f", "2.0f"))
    edited = _keys(original, port)
    assert rule[0] == written[0] == edited[0]  # the rule translation, a port, its edit: one nvcc compile
    assert len({rule[1], written[1], edited[1]}) == 3 and len({rule[2], written[2], edited[2]}) == 3
    original.write_text(KERNEL.replace("1.0f", "3.0f"))
    assert _keys(original, port)[0] != edited[0]
