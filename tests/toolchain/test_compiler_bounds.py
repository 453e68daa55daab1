"""Issue #26, item 3: no compile starts on an include of something that is not a regular file, and
every compiler runs within ``cass.compilerLimits``.

A ``#include "/dev/zero"`` made nvcc's cc1plus grow past 3.6 GB in 20 s; a FIFO makes it block for
ever. Both are refused before any compiler starts, with an error on the include's line, wherever the
include hides: spliced, after a comment, in ``#if 0``, behind a symbolic link, in a header, in an
angle include through a ``-I`` folder, or as a ``-include`` flag of compile_commands.json. The
compiles below would hang on the FIFO (until the timeout) if they started. What the check cannot
see (an include through a macro) meets the bounds: the compilers of listings, verification and the
CPU runtime's builds each stop there, say which setting stopped them, and their failure is not
taken for a verdict on the code.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from cass_lsp import cpu
from cass_lsp.asm import compile as asm_compile
from cass_lsp.asm import jobs as asm_jobs
from cass_lsp.asm.listing import CompileFailure
from cass_lsp.cli import main as cli
from cass_lsp.compile import includes
from cass_lsp.compile.program import of_file
from cass_lsp.core.cache import ResultCache
from cass_lsp.core.pairs import Pair
from cass_lsp.core.settings import CompilerLimits
from cass_lsp.server import trust
from cass_lsp.services.settings import resolve_cli
from cass_lsp.verify import stages
from cass_lsp.verify.stages import Inputs

# Long enough for a real compile of these few lines on a loaded machine; far shorter than a hang.
TIMEOUT = 120.0
KERNEL = "__global__ void k(float* x) { x[threadIdx.x] = 1.0f; }\n"


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "pipe.h"
    os.mkfifo(path)
    return path


def refused_lines(source: str, path: Path, flags: list[str] | None = None) -> list[tuple[str, int, str]]:
    flags = flags or []
    dirs = includes.search_dirs(flags)
    found = includes.refusals(source, path, [path.parent, *dirs], includes.project_dirs(dirs), includes.forced(flags))
    return [(r.file.name, r.line, r.what) for r in found]


@pytest.mark.parametrize(
    "spelling",
    [
        '#include "/dev/zero"',
        "#include </dev/zero>",
        '  #  include "/dev/zero"',
        '/* a comment */ #include "/dev/zero"',
        '%:include "/dev/zero"',
        '??=include "/dev/zero"',
        '#include_next "/dev/zero"',
        '#import "/dev/zero"',
        '#embed "/dev/zero"',
    ],
)
def test_every_spelling_of_an_include_of_a_device_is_refused(tmp_path: Path, spelling: str) -> None:
    source = f"// first\n{spelling}\n{KERNEL}"
    assert refused_lines(source, tmp_path / "k.cu") == [("k.cu", 2, "a character device")]


def test_a_spliced_include_is_refused_on_the_line_it_starts(tmp_path: Path) -> None:
    source = '#define X \\\n  1\n#inc\\\nlude "/dev/zero"\n'
    assert refused_lines(source, tmp_path / "k.cu") == [("k.cu", 3, "a character device")]


def test_fifos_links_proc_and_dead_branches_are_refused(tmp_path: Path, fifo: Path) -> None:
    (tmp_path / "zero.h").symlink_to("/dev/zero")
    source = '#include "pipe.h"\n#if 0\n#include "zero.h"\n#endif\n#include "/proc/self/environ"\n'
    assert refused_lines(source, tmp_path / "k.cu") == [
        ("k.cu", 1, "a FIFO"),
        ("k.cu", 3, "a character device"),
        ("k.cu", 5, "a file of the kernel's proc file system"),
    ]


def test_regular_headers_folders_and_names_left_to_macros_are_not_refused(tmp_path: Path) -> None:
    (tmp_path / "ok.h").write_text("#pragma once\n")
    (tmp_path / "dir.h").mkdir()  # a folder is skipped by compilers, as here
    source = '#include "ok.h"\n#include "dir.h"\n#include "missing.h"\n#include HEADER\n// #include "/dev/zero"\n'
    assert refused_lines(source, tmp_path / "k.cu") == []


def test_a_header_and_the_build_flags_are_followed(tmp_path: Path) -> None:
    (tmp_path / "inner.h").write_text('#pragma once\n#include "/dev/zero"\n')
    source = '#include "inner.h"\n#include <null>\n'
    assert refused_lines(source, tmp_path / "k.cu", ["-I/dev"]) == [
        ("k.cu", 2, "a character device"),
        ("inner.h", 2, "a character device"),
    ]
    assert refused_lines(KERNEL, tmp_path / "k.cu", ["-include", "/dev/zero"]) == [("k.cu", 0, "a character device")]


def listing(source: str, path: Path, target: str) -> object:
    resolved = resolve_cli(asm={"timeoutSeconds": TIMEOUT})
    return asm_jobs.build_listing(resolved, source, str(path), target)


@pytest.mark.parametrize("target", ["sm_90", "gfx1100"])
def test_a_listing_is_refused_with_an_error_on_the_include_line(tmp_path: Path, fifo: Path, target: str) -> None:
    path = tmp_path / "k.cu"
    source = f'{KERNEL}#include "{fifo.name}"\n'
    result = listing(source, path, target)
    assert isinstance(result, CompileFailure) and not result.timed_out, result
    [error] = result.diagnostics
    assert (error.severity, error.file, error.line) == ("error", str(path), 2)
    assert error.message.startswith("#include 'pipe.h' reaches") and "a FIFO, not a regular file" in error.message


def test_a_compile_commands_include_flag_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "k.cu"
    path.write_text(KERNEL)
    entry = {"directory": str(tmp_path), "file": "k.cu", "arguments": ["nvcc", "-include", "/dev/zero", "-c", "k.cu"]}
    (tmp_path / "compile_commands.json").write_text(json.dumps([entry]))
    result = listing(KERNEL, path, "sm_90")
    assert isinstance(result, CompileFailure) and not result.timed_out, result
    assert [(d.line, d.message.split(" reaches")[0]) for d in result.diagnostics] == [(1, "-include /dev/zero")]


def test_the_cli_says_why_nothing_was_compiled(tmp_path: Path, fifo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "k.cu"
    path.write_text(f'#include "{fifo.name}"\n{KERNEL}')
    assert cli.main(["asm", str(path), "--no-cache", "-t", "sm_90"]) == 1
    out = capsys.readouterr().out
    assert re.search(
        r"#include 'pipe\.h' reaches .*pipe\.h, a FIFO, not a regular file: refused before compiling", out
    ), out


@pytest.mark.parametrize("side", ["original", "translation"])
def test_a_verification_compile_is_refused_with_the_line(tmp_path: Path, fifo: Path, side: str) -> None:
    original = tmp_path / "k.cu"
    # by its full path: verification compiles a copy of the program elsewhere, where "pipe.h" is not
    original.write_text(f'{KERNEL}#include "{fifo}"\n')
    program = of_file(str(original), ["{stem}.hip"])
    inputs = Inputs(Pair(str(original), None), program, {str(original): original.read_text()})
    resolved = resolve_cli()
    plan = (
        stages.plan_original(inputs, resolved)
        if side == "original"
        else stages.plan_translation(inputs, resolved, "gfx1100")
    )
    result = stages.run_compile(plan, timeout=TIMEOUT)
    assert result.outcome == "failed", result
    assert "was not started" in result.message and "k.cu:2" in result.message and "a FIFO" in result.message
    assert [(d.severity, d.file, d.line) for d in result.diagnostics] == [("error", str(original), 2)]


# ---------------------------------------------------------------------- the bounds of cass.compilerLimits
# An include the check cannot see (through a macro) of /dev/zero: g++'s preprocessor under nvcc and
# for the CPU runtime reads it without end, and its buffer passes this (tight) bound within seconds.
ZERO_BY_MACRO = f'#define ZERO "/dev/zero"\n#include ZERO\n{KERNEL}'
TIGHT = {"memoryMb": 300, "cpuSeconds": 60}


def test_a_listing_stopped_by_the_memory_bound_names_the_setting_and_is_not_cached(tmp_path: Path) -> None:
    resolved = resolve_cli(asm={"timeoutSeconds": TIMEOUT}, compilerLimits=TIGHT)
    cache = ResultCache(tmp_path / "cache")
    result = asm_jobs.build_listing(resolved, ZERO_BY_MACRO, str(tmp_path / "k.cu"), "sm_90", cache=cache)
    assert isinstance(result, CompileFailure) and result.bounded and not result.timed_out, result
    assert result.note == "the compiler ran out of memory at its bound of 300 MB (cass.compilerLimits.memoryMb)"
    job = asm_compile.prepare(ZERO_BY_MACRO, tmp_path / "k.cu", "sm_90")
    assert cache.get(asm_jobs.LISTING.name, job.key) is None  # the bound is this setting's, not the code's


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


def test_an_error_of_the_code_that_reads_like_a_bound_is_the_codes(tmp_path: Path) -> None:
    """A program cannot pass its own compile error off as a bound (could not verify, not cached)."""
    original = tmp_path / "k.cu"
    text = f"{KERNEL}#error out of memory: std::bad_alloc, CPU time limit exceeded\n"
    original.write_text(text)
    inputs = Inputs(Pair(str(original), None), of_file(str(original), ["{stem}.hip"]), {str(original): text})
    result = stages.run_compile(stages.plan_original(inputs, resolve_cli()), timeout=TIMEOUT)
    assert result.outcome == "failed" and result.cacheable, result
    listed = asm_jobs.build_listing(resolve_cli(), text, str(original), "sm_90")
    assert isinstance(listed, CompileFailure) and not listed.bounded, listed
