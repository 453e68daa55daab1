"""Listings from the real compilers for the kernels in tests/asm_kernels.

Lines are found by the ``// NAME_LINE`` markers in the kernel files. Each (file, target) is compiled
once per test session.
"""

from __future__ import annotations

import functools
import json
import os
import re
from pathlib import Path

import msgspec
import pytest

from cass_lsp.asm import jobs as asm_jobs
from cass_lsp.asm.listing import CompileFailure, Listing, TargetResult, Unavailable, find_functions, instructions_at
from cass_lsp.cli import main as cli
from cass_lsp.cli.asm import AsmReport
from cass_lsp.compile import scratch
from cass_lsp.core.cache import ResultCache
from cass_lsp.core.cancel import CancelToken
from cass_lsp.services.settings import resolve_cli
from cass_lsp.toolchains import amd
from cass_lsp.translate import buffer

KERNELS = Path(__file__).resolve().parent.parent / "asm_kernels"
TIMEOUT = 300.0


def marker(name: str, marker_name: str) -> int:
    for number, text in enumerate((KERNELS / name).read_text().splitlines(), 1):
        if f"// {marker_name}" in text:
            return number
    raise AssertionError(f"{marker_name} not in {name}")


def build_listing(
    source: str,
    path: Path,
    target: str,
    *,
    timeout: float = TIMEOUT,
    rocm: str = "auto",
    extra_args: list[str] | None = None,
    cache: ResultCache | None = None,
    token: CancelToken | None = None,
) -> TargetResult:
    """The job layer's listing work, as the server and the CLI run it."""
    extra = extra_args or []
    resolved = resolve_cli(
        target={"rocm": rocm}, asm={"timeoutSeconds": timeout, "extraArgs": {"nvcc": extra, "clang": extra}}
    )
    return asm_jobs.build_listing(resolved, source, str(path), target, cache=cache, token=token)


def cached(source: str, path: Path, target: str, cache: ResultCache, extra_args: list[str] | None = None) -> bool:
    """Whether the cache answers for this input (the build then does not compile: it is instant)."""
    from cass_lsp.asm import compile as asm_compile

    resolved = resolve_cli(asm={"extraArgs": {"nvcc": extra_args or [], "clang": []}})
    job = asm_compile.prepare(
        source, path, target, extra_args=resolved.extra_args("nvidia"), rocm=resolved.rocm,
        translate_options=resolved.options,
    )
    return cache.get(asm_jobs.LISTING.name, job.key) is not None


@functools.cache
def listing(name: str, target: str, rocm: str = "5.2") -> Listing:
    path = KERNELS / name
    result = build_listing(path.read_text(), path, target, timeout=TIMEOUT, rocm=rocm)
    assert isinstance(result, Listing), f"{name} on {target}: {result}"
    return result


def opcodes_at(result: Listing, name: str, line: int) -> list[str]:
    return [ins.opcode for _, ins in instructions_at(result, str(KERNELS / name), line)]


def test_barrier_and_global_load_lines() -> None:
    name = "reduce_shared.cu"
    nv, amd_listing = listing(name, "sm_90"), listing(name, "gfx1100")
    barrier, load, store = (marker(name, m) for m in ("BARRIER_LINE", "LOAD_LINE", "STORE_LINE"))
    assert any(op.startswith("BAR") for op in opcodes_at(nv, name, barrier))
    assert "s_barrier" in opcodes_at(amd_listing, name, barrier)
    assert any(op.startswith("LDG") for op in opcodes_at(nv, name, load))
    assert any(op.startswith("global_load") for op in opcodes_at(amd_listing, name, load))
    assert any(op.startswith("STG") for op in opcodes_at(nv, name, store))
    assert any(op.startswith("global_store") for op in opcodes_at(amd_listing, name, store))
    for result in (nv, amd_listing):
        (kernel,) = result.functions
        assert kernel.kind == "kernel" and kernel.short_name == "block_sum"
        assert kernel.resources.shared_bytes == 1024
        assert (kernel.resources.registers or 0) > 0 and (kernel.resources.occupancy or 0) > 0
    assert amd_listing.translated and amd_listing.note and "rule translation" in amd_listing.note
    assert not nv.translated


def test_every_line_lies_in_the_file_or_a_header_it_includes() -> None:
    for name in (
        "reduce_shared.cu",
        "shuffles.cu",
        "atomics.cu",
        "templates.cu",
        "multi.cu",
        "inlined_header.cu",
        "shuffles.hip",
        "host_launch.cu",
    ):
        for target in ("sm_90", "gfx1100"):
            result = listing(name, target)
            assert result.source == str(KERNELS / name)
            counted = 0
            for function in result.functions:
                for ins in function.instructions:
                    for loc in ins.locations():
                        lines = _lines(loc.file)
                        assert 1 <= loc.line <= lines, f"{name}/{target}: {ins.text} at {loc}"
                        assert "cass-asm-" not in loc.file  # temp paths are mapped back
                        counted += 1
            assert counted > 0


@functools.cache
def _lines(path: str) -> int:
    return len(Path(path).read_text(errors="replace").splitlines())


def test_warp_shuffles() -> None:
    name = "shuffles.cu"
    shfl, call = marker(name, "SHFL_LINE"), marker(name, "CALL_LINE")
    nv, amd_listing = listing(name, "sm_90"), listing(name, "gfx1100")
    assert any(op.startswith("SHFL.DOWN") for op in opcodes_at(nv, name, shfl))
    assert any(op.startswith("SHFL.DOWN") for op in opcodes_at(nv, name, call))  # inlined at the call
    amd_ops = opcodes_at(amd_listing, name, shfl)
    assert any(op.startswith(("ds_bpermute", "ds_swizzle", "v_mov_b32_dpp")) or "dpp" in op for op in amd_ops)


def test_hip_file_on_both_vendors() -> None:
    name = "shuffles.hip"
    nv, amd_listing = listing(name, "sm_90"), listing(name, "gfx1100")
    shfl, barrier, load = (marker(name, m) for m in ("SHFL_LINE", "BARRIER_LINE", "LOAD_LINE"))
    assert any(op.startswith("SHFL.DOWN") for op in opcodes_at(nv, name, shfl))
    assert "ds_bpermute_b32" in opcodes_at(amd_listing, name, shfl)
    assert any(op.startswith("BAR") for op in opcodes_at(nv, name, barrier))
    assert "s_barrier" in opcodes_at(amd_listing, name, barrier)
    assert any(op.startswith("LDG") for op in opcodes_at(nv, name, load))
    assert not amd_listing.translated
    # The NVIDIA side went through the project's shim header
    shim = [loc.file for f in nv.functions for i in f.instructions for loc in i.inlined_at if "hip_nv_shim" in loc.file]
    assert shim


def test_atomics() -> None:
    name = "atomics.cu"
    nv, amd_listing = listing(name, "sm_90"), listing(name, "gfx1100")
    shared, global_, cas = (marker(name, m) for m in ("SHARED_ATOMIC_LINE", "GLOBAL_ATOMIC_LINE", "CAS_LINE"))
    assert any(op.startswith("ATOMS") for op in opcodes_at(nv, name, shared))
    assert any(op.startswith("ds_add") for op in opcodes_at(amd_listing, name, shared))
    assert any(op.startswith(("RED", "ATOMG")) for op in opcodes_at(nv, name, global_))
    assert any(op.startswith("global_atomic_add") for op in opcodes_at(amd_listing, name, global_))
    assert any(op.startswith("ATOMG.E.CAS") for op in opcodes_at(nv, name, cas))
    assert any(op.startswith("global_atomic_cmpswap") for op in opcodes_at(amd_listing, name, cas))


def test_templates_list_every_instance() -> None:
    name = "templates.cu"
    for target in ("sm_90", "gfx1100"):
        result = listing(name, target)
        instances = find_functions(result, "transform")
        assert sorted(f.short_name for f in instances) == ["transform<float, Saxpy>", "transform<int, AddInt>"]
        apply_line = marker(name, "APPLY_LINE")
        holders = {f.short_name for f, _ in instructions_at(result, str(KERNELS / name), apply_line)}
        assert holders == {"transform<float, Saxpy>", "transform<int, AddInt>"}
        functor = marker(name, "FUNCTOR_LINE")
        assert {f.short_name for f, _ in instructions_at(result, str(KERNELS / name), functor)} == {
            "transform<float, Saxpy>"
        }


def test_multiple_kernels_device_function_and_stack() -> None:
    name = "multi.cu"
    nv = listing(name, "sm_90")
    kernels = sorted(f.short_name for f in nv.functions if f.kind == "kernel")
    assert kernels == ["evaluate", "gather_local", "scale"]
    poly = [f for f in nv.functions if f.kind == "device"]
    assert [f.short_name for f in poly] == ["poly"]  # __noinline__: its own function on NVIDIA
    assert "CALL.REL.NOINC" in opcodes_at(nv, name, marker(name, "EVAL_LINE"))
    assert opcodes_at(nv, name, marker(name, "POLY_LINE"))
    amd_listing = listing(name, "gfx1100")
    for result in (nv, amd_listing):
        (gather,) = find_functions(result, "gather_local")
        assert (gather.resources.scratch_bytes or 0) >= 1024  # the 256-float table lives in memory
        (scale,) = find_functions(result, "scale")
        assert scale.resources.scratch_bytes == 0


def test_header_inlined_device_function() -> None:
    name = "inlined_header.cu"
    header = str(KERNELS / "local_math.cuh")
    call = marker(name, "CALL_LINE")
    div = marker("local_math.cuh", "HEADER_DIV_LINE")
    for target in ("sm_90", "gfx1100"):
        result = listing(name, target)
        in_header = [ins for _, ins in instructions_at(result, header, div)]
        assert in_header, target
        assert all(
            any(loc.file == str(KERNELS / name) and loc.line == call for loc in ins.inlined_at) for ins in in_header
        )
        # the call line shows the header's instructions too
        at_call = {id(ins) for _, ins in instructions_at(result, str(KERNELS / name), call)}
        assert {id(ins) for ins in in_header} <= at_call


@pytest.mark.parametrize(("target", "wave"), [("gfx1200", 32), ("gfx90a", 64), ("gfx942", 64)])
def test_other_amd_targets(target: str, wave: int) -> None:
    name = "reduce_shared.cu"
    result = listing(name, target)
    (kernel,) = result.functions
    assert kernel.resources.wave_size == wave and kernel.resources.shared_bytes == 1024
    # gfx12 splits the barrier into s_barrier_signal + s_barrier_wait
    assert any(op.startswith("s_barrier") for op in opcodes_at(result, name, marker(name, "BARRIER_LINE")))


def test_rocm71_profile() -> None:
    name = "host_launch.cu"
    result = listing(name, "gfx1100", "7.1")
    assert result.translated and result.note and "ROCm 7.1" in result.note
    assert "hip 7.1." in result.toolchain
    assert "ds_bpermute_b32" in opcodes_at(result, name, marker(name, "XOR_LINE"))


def test_compile_errors_become_diagnostics_on_the_right_line(tmp_path: Path) -> None:
    for suffix in (".cu", ".hip"):
        path = tmp_path / f"broken{suffix}"
        source = "__global__ void k(float* out) {\n  int i = threadIdx.x;\n\n  out[i] = not_declared;\n}\n"
        if suffix == ".hip":
            source = "#include <hip/hip_runtime.h>\n" + source
        for target in ("sm_90", "gfx1100"):
            result = build_listing(source, path, target, timeout=TIMEOUT)
            assert isinstance(result, CompileFailure), (suffix, target)
            errors = [d for d in result.diagnostics if d.severity == "error"]
            assert errors, result.output
            expected = source.splitlines().index("  out[i] = not_declared;") + 1
            assert (errors[0].file, errors[0].line) == (str(path), expected), (suffix, target, errors)
            assert "not_declared" in errors[0].message
            assert "cass-asm-" not in result.output


def test_timeout_kills_the_compiler() -> None:
    path = KERNELS / "multi.cu"
    result = build_listing(path.read_text(), path, "sm_90", timeout=0.1)
    assert isinstance(result, CompileFailure) and result.timed_out
    assert result.note and "killed" in result.note


def test_cancel_stops_the_compile() -> None:
    path = KERNELS / "multi.cu"
    token = CancelToken()
    token.cancel()
    result = build_listing(path.read_text(), path, "gfx1100", token=token, timeout=TIMEOUT)
    assert isinstance(result, CompileFailure) and result.cancelled


def test_missing_clang_is_unavailable_with_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(amd, "clang", lambda: None)
    path = KERNELS / "reduce_shared.cu"
    result = build_listing(path.read_text(), path, "gfx1100")
    assert isinstance(result, Unavailable) and result.hint and "clang-19" in result.hint


def test_unknown_target_is_refused() -> None:
    result = build_listing("", KERNELS / "multi.cu", "tpu_v5")
    assert isinstance(result, Unavailable) and "unknown target" in result.message


def test_cache_hits_and_header_edits_invalidate(tmp_path: Path) -> None:
    for name in ("inlined_header.cu", "local_math.cuh"):
        (tmp_path / name).write_text((KERNELS / name).read_text())
    path = tmp_path / "inlined_header.cu"
    cache = ResultCache(tmp_path / "cache")
    source = path.read_text()
    assert not cached(source, path, "sm_90", cache)
    first = build_listing(source, path, "sm_90", cache=cache, timeout=TIMEOUT)
    assert isinstance(first, Listing)
    cache.clear_memory()
    assert cached(source, path, "sm_90", cache)
    assert build_listing(source, path, "sm_90", cache=ResultCache(tmp_path / "cache")) == first  # after a restart
    # the local header is part of the key
    header = tmp_path / "local_math.cuh"
    header.write_text(header.read_text().replace("3.0f - 2.0f * t", "3.5f - 2.0f * t"))
    assert not cached(source, path, "sm_90", cache)
    # so is the buffer text, and the flags
    assert not cached(source + "\n", path, "sm_90", cache)
    assert not cached(source, path, "sm_90", cache, extra_args=["-DX=1"])


def test_compile_commands_flags_are_used(tmp_path: Path) -> None:
    (tmp_path / "include").mkdir()
    (tmp_path / "include" / "params.cuh").write_text("#define FACTOR 3.0f\n")
    source = '#include "params.cuh"\n__global__ void k(float* x) { x[threadIdx.x] *= FACTOR * SCALE; }\n'
    path = tmp_path / "src" / "k.cu"
    path.parent.mkdir()
    path.write_text(source)
    without = build_listing(source, path, "sm_90", timeout=TIMEOUT)
    assert isinstance(without, CompileFailure)
    (tmp_path / "compile_commands.json").write_text(
        json.dumps(
            [
                {
                    "directory": str(tmp_path),
                    "file": "src/k.cu",
                    "arguments": ["nvcc", "-Iinclude", "-DSCALE=2.0f", "-c", "src/k.cu"],
                }
            ]
        )
    )
    for target in ("sm_90", "gfx1100"):
        result = build_listing(source, path, target, timeout=TIMEOUT)
        assert isinstance(result, Listing), result


def test_cli_prints_both_targets_and_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    name = "reduce_shared.cu"
    path = str(KERNELS / name)
    barrier = marker(name, "BARRIER_LINE")
    assert cli.main(["asm", path, "--no-cache", "--line", str(barrier)]) == 0
    text = capsys.readouterr().out
    assert "== sm_90 · reduce_shared.cu" in text and "== gfx1100 · reduce_shared.cu" in text
    assert "BAR.SYNC" in text and "s_barrier" in text and "__syncthreads();" in text
    json_args = ["--no-cache", "--json", "--kernel", "block_sum", "-t", "sm_90", "-t", "gfx1100"]
    assert cli.main(["asm", path, *json_args]) == 0
    report = msgspec.json.decode(capsys.readouterr().out, type=AsmReport)
    assert [r.target for r in report.results] == ["sm_90", "gfx1100"]
    assert all(isinstance(r, Listing) and r.functions for r in report.results)
    assert cli.main(["asm", path, "--no-cache", "-t", "tpu_v5"]) == 2
    assert cli.main(["asm", path, "--no-cache", "-t", "sm_42x"]) == 1  # nvcc itself refuses it
    assert "Unsupported gpu architecture 'sm_42x'" in capsys.readouterr().out
    broken = tmp_path / "broken.cu"
    broken.write_text("__global__ void k() { nope; }\n")
    assert cli.main(["asm", str(broken), "--no-cache", "-t", "sm_90"]) == 1
    assert re.search(r"does not compile: `identifier \"nope\" is undefined` \(line 1\)", capsys.readouterr().out)


def test_cli_prints_compiler_text_escaped(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    hostile = tmp_path / "hostile.cu"  # nvcc echoes the #error line: the file chooses what it prints
    hostile.write_text('#error "\x1b]0;owned\x07\x1b[2J"\n__global__ void k() {}\n')
    assert cli.main(["asm", str(hostile), "--no-cache", "-t", "sm_90"]) == 1
    out = capsys.readouterr().out
    assert "\\x1b]0;owned\\x07\\x1b[2J" in out, out
    assert "\x1b" not in out and "\x07" not in out, out


def test_listing_json_uses_camel_case() -> None:
    data = json.loads(msgspec.json.encode(listing("multi.cu", "sm_90")))
    assert data["kind"] == "listing"
    first = data["functions"][0]
    assert "shortName" not in first and "demangled" in first
    assert "scratchBytes" in first["resources"]
    assert os.path.isabs(data["source"])


def test_a_corrupted_cache_record_is_ignored_and_rebuilt(tmp_path: Path) -> None:
    path = KERNELS / "reduce_shared.cu"
    source = path.read_text() + f"// {tmp_path.name}\n"
    cache = ResultCache(tmp_path / "cache")
    first = build_listing(source, path, "sm_90", cache=cache)
    assert isinstance(first, Listing)
    records = list((tmp_path / "cache").rglob("*.msgpack"))
    assert len(records) == 1
    records[0].write_bytes(b"\x00garbage from a torn write")
    fresh = ResultCache(tmp_path / "cache")  # a restart: nothing in memory
    rebuilt = build_listing(source, path, "sm_90", cache=fresh)
    assert isinstance(rebuilt, Listing) and rebuilt.functions == first.functions
    assert not records[0].read_bytes().startswith(b"\x00garbage")  # rewritten by the rebuild
    asm_jobs.register_listings(restarted := ResultCache(tmp_path / "cache"))
    assert restarted.get(asm_jobs.LISTING.name, records[0].stem) == rebuilt


def test_the_amd_listing_of_a_cuda_file_uses_the_users_translation_options(tmp_path: Path) -> None:
    from cass_lsp.asm import compile as asm_compile
    from cass_lsp.core.profile import TranslateOptions

    path = KERNELS / "host_launch.cu"
    source = path.read_text()
    chevron = asm_compile.prepare(source, path, "gfx1100", rocm="5.2", translate_options=TranslateOptions())
    ggl = asm_compile.prepare(
        source, path, "gfx1100", rocm="5.2", translate_options=TranslateOptions(launch_style="hipLaunchKernelGGL")
    )
    assert chevron.key != ggl.key
    text, _, _ = buffer.translated(source, scratch.HipTarget("gfx1100", "5.2", ggl.translate_options))
    assert "hipLaunchKernelGGL(" in text
    resolved = resolve_cli(target={"rocm": "5.2"}, translate={"launchStyle": "hipLaunchKernelGGL"})
    result = asm_jobs.build_listing(resolved, source, str(path), "gfx1100")
    assert isinstance(result, Listing), result
