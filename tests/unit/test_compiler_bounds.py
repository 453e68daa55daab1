"""Issue #26, item 3: every compiler runs within ``cass.compilerLimits``.

A ``#include "/dev/zero"`` made nvcc's cc1plus grow past 3.6 GB in 20 s. The compilers of listings,
verification and the CPU runtime's builds each stop at the bound, say which setting stopped them,
and their failure is not taken for a verdict on the code.
"""

from __future__ import annotations

from pathlib import Path

from cass_lsp import cpu
from cass_lsp.asm import compile as asm_compile
from cass_lsp.asm.listing import CompileFailure
from cass_lsp.config import CompilerLimits
from cass_lsp.jobs import kinds
from cass_lsp.jobs.cache import ResultCache
from cass_lsp.jobs.resolved import resolve_cli
from cass_lsp.program import of_file
from cass_lsp.server import trust
from cass_lsp.verify import stages
from cass_lsp.verify.pairs import Pair
from cass_lsp.verify.stages import Inputs

# Long enough for a real compile of these few lines on a loaded machine; far shorter than a hang.
TIMEOUT = 120.0
KERNEL = "__global__ void k(float* x) { x[threadIdx.x] = 1.0f; }\n"


# ---------------------------------------------------------------------- the bounds of cass.compilerLimits
# An include the check cannot see (through a macro) of /dev/zero: g++'s preprocessor under nvcc and
# for the CPU runtime reads it without end, and its buffer passes this (tight) bound within seconds.
ZERO_BY_MACRO = f'#define ZERO "/dev/zero"\n#include ZERO\n{KERNEL}'
TIGHT = {"memoryMb": 300, "cpuSeconds": 60}


def test_a_listing_stopped_by_the_memory_bound_names_the_setting_and_is_not_cached(tmp_path: Path) -> None:
    resolved = resolve_cli(asm={"timeoutSeconds": TIMEOUT}, compilerLimits=TIGHT)
    cache = ResultCache(tmp_path / "cache")
    result = kinds.build_listing(resolved, ZERO_BY_MACRO, str(tmp_path / "k.cu"), "sm_90", cache=cache)
    assert isinstance(result, CompileFailure) and result.bounded and not result.timed_out, result
    assert result.note == "the compiler ran out of memory at its bound of 300 MB (cass.compilerLimits.memoryMb)"
    job = asm_compile.prepare(ZERO_BY_MACRO, tmp_path / "k.cu", "sm_90")
    assert cache.get(kinds.LISTING.name, job.key) is None  # the bound is this setting's, not the code's


def test_a_verification_compile_stopped_by_a_bound_is_could_not_verify(tmp_path: Path) -> None:
    original = tmp_path / "k.cu"
    original.write_text(ZERO_BY_MACRO)
    program = of_file(str(original), ["{stem}.hip"])
    inputs = Inputs(Pair(str(original), None), program, {str(original): ZERO_BY_MACRO})
    resolved = resolve_cli(compilerLimits=TIGHT)
    plan = stages.plan_original(inputs, resolved)
    result = stages.run_compile(plan, timeout=TIMEOUT, limits=resolved.compiler_limits)
    assert result.outcome == "unavailable" and not result.cacheable, result
    assert result.message == "nvcc ran out of memory at its bound of 300 MB (cass.compilerLimits.memoryMb)"


def test_a_cpu_runtime_build_stopped_by_a_bound_says_so(tmp_path: Path) -> None:
    limits = CompilerLimits(memory_mb=300).bounds()
    built = cpu.build(tmp_path / "k.cu", ZERO_BY_MACRO, tmp_path, timeout=TIMEOUT, limits=limits)
    assert not built.ok and built.bound is not None
    assert "(cass.compilerLimits.memoryMb)" in built.log.splitlines()[-1]


def test_an_untrusted_workspace_cannot_lift_the_bounds() -> None:
    kept, dropped = trust.without_code({"compilerLimits": {"memoryMb": 1 << 20, "cpuSeconds": 300}})
    assert dropped == ["compilerLimits.memoryMb"] and kept == {"compilerLimits": {"cpuSeconds": 300}}
