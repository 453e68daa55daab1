"""The verifier's corpus itself (tests/corpus/verifier_programs): real CUDA that the real nvcc accepts
with the program's own build flags, a main per program, a valid verify.json, data files present.
The tests that run the verifier on it live with the verifier's tests; the measurement is
benchmarks/bench_verifier.py.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from cass_lsp import toolchains
from cass_lsp.core import proc
from tests.corpus.verifier_programs import COMPILE_COMMANDS, CorpusError, Program, programs, read_verify_json

_NVCC_TIMEOUT_S = 300.0
PROGRAMS = programs()
UNITS = [(p, u) for p in PROGRAMS for u in p.units]
# Programs whose build flags are not optional: without them nvcc rejects a unit.
NEEDS_FLAGS = {
    "matmul_tiled": "matmul.cu",  # -DTILE (#error without it)
    "transpose_padded": "transpose.cu",  # -DTILE_DIM -DBLOCK_ROWS
    "lambda_transform": "main.cu",  # --extended-lambda
    "minmax_constexpr": "minmax.cu",  # --expt-relaxed-constexpr
}


def _ptx(nvcc: toolchains.Invocation, program: Program, unit: Path, flags: list[str]) -> proc.ProcResult:
    argv = [*nvcc.argv, *flags, "--ptx", "-o", os.devnull, unit.name]
    return proc.run(argv, env=nvcc.env, cwd=program.root, timeout=_NVCC_TIMEOUT_S)


def test_corpus_shape() -> None:
    assert len(PROGRAMS) >= 22
    multi_unit = [p.name for p in PROGRAMS if len(p.units) + len(p.host_units) >= 2]
    assert len(multi_unit) * 2 >= len(PROGRAMS), f"only {multi_unit} have several units"
    assert any(p.host_units for p in PROGRAMS), "no program has a .cpp host unit"
    assert any(p.data_files for p in PROGRAMS), "no program reads an input file"
    assert any((p.root / COMPILE_COMMANDS).is_file() for p in PROGRAMS)
    readme = (PROGRAMS[0].root.parent / "README.md").read_text(encoding="utf-8")
    missing = [p.name for p in PROGRAMS if f"`{p.name}`" not in readme]
    assert not missing, f"README.md does not describe {missing}"


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.name)
def test_program_layout(program: Program) -> None:
    assert program.main_unit() is not None, f"{program.name}: no unit defines main"
    assert program.timing, f"{program.name}: verify.json names no timing lines"
    for arg in program.args:  # an argument naming a file names one of the program's data files
        if "." in arg and not arg.replace(".", "").isdigit():
            assert (program.root / arg).is_file(), f"{program.name}: argument {arg} is not a file in the folder"
    database = program.root / COMPILE_COMMANDS
    if database.is_file():
        for entry in json.loads(database.read_text(encoding="utf-8")):
            assert set(entry) >= {"directory", "file", "arguments"}, entry
            assert entry["arguments"][0] == "nvcc"
            assert (program.root / entry["file"]).is_file(), entry["file"]


def test_verify_json_is_checked(tmp_path: Path) -> None:
    """A broken verify.json is refused by name, so a typo cannot silently drop a program's timing masks."""
    bad = tmp_path / "verify.json"
    for text, reason in [
        ('{"args": ["1"], "timingLine": ["x"]}', "unknown keys"),
        ('{"args": "1"}', "args must be a list"),
        ('{"timingLines": ["(unclosed"]}', "timingLines"),
        ("[1, 2]", "JSON object"),
    ]:
        bad.write_text(text)
        with pytest.raises(CorpusError, match=reason):
            read_verify_json(bad)


@pytest.mark.parametrize(("program", "unit"), UNITS, ids=[f"{p.name}/{u.name}" for p, u in UNITS])
def test_unit_compiles_with_nvcc(program: Program, unit: Path, nvcc: toolchains.Invocation) -> None:
    result = _ptx(nvcc, program, unit, program.nvcc_flags(unit))
    assert result.ok, f"nvcc rejected {program.name}/{unit.name}:\n{result.text()}"


@pytest.mark.parametrize("name", sorted(NEEDS_FLAGS))
def test_flags_are_needed(name: str, nvcc: toolchains.Invocation) -> None:
    """These programs measure whether the verifier passes compile_commands.json's flags on."""
    (program,) = programs([name])
    unit = program.root / NEEDS_FLAGS[name]
    assert program.nvcc_flags(unit)
    result = _ptx(nvcc, program, unit, [])
    assert not result.ok, f"{name}/{unit.name} compiles without its flags {program.nvcc_flags(unit)}"
