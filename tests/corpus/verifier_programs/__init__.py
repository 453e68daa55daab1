"""The verifier's corpus: realistic CUDA programs written for this project, one folder each.

A folder is one program: its ``.cu`` units (one has ``main``), local headers, optional ``.cpp`` host
units, data files it reads (``input.txt``, ``data.bin``), an optional ``compile_commands.json`` (its
build flags; ``"directory": "."`` stands for the folder, wherever it is copied) and an optional
``verify.json``:

    {"args": [...], "expectedExit": 0, "timingLines": [regex, ...]}

``timingLines`` match the parts of the output that change from run to run (timings, throughput):
they are masked before two runs' outputs are compared to decide whether they really differ. The
verifier never sees them; it must find the noise itself. ``benchmarks/bench_verifier.py`` and
``tests/corpus/test_verifier_corpus.py`` read the corpus through this module.
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

from cass_lsp.compile.program import defines_main

ROOT = Path(__file__).resolve().parent
VERIFY_JSON = "verify.json"
COMPILE_COMMANDS = "compile_commands.json"
_SOURCE_SUFFIXES = frozenset({".cu", ".cuh", ".h", ".hpp", ".cpp", ".hip"})
_NOT_DATA = frozenset({VERIFY_JSON, COMPILE_COMMANDS, "README.md", "__init__.py"})
_VERIFY_KEYS = frozenset({"args", "expectedExit", "timingLines"})
# nvcc options a program's build needs, as written in its compile_commands.json entries.
_FLAG_PREFIXES = ("-D", "-U", "-I", "-std=", "--std=", "--extended-lambda", "--expt-relaxed-constexpr",
                  "--expt-extended-lambda")
MASK = "<timing>"


@dataclasses.dataclass(frozen=True)
class Program:
    name: str
    root: Path
    units: tuple[Path, ...]  # .cu translation units
    host_units: tuple[Path, ...]  # .cpp units built by the host compiler
    headers: tuple[Path, ...]
    data_files: tuple[Path, ...]
    args: tuple[str, ...]
    expected_exit: int
    timing: tuple[re.Pattern[str], ...]

    def masked(self, output: str) -> str:
        """``output`` with what the timing patterns match replaced by one marker, line by line."""
        lines = []
        for line in output.splitlines():
            for pattern in self.timing:
                line = pattern.sub(MASK, line)
            lines.append(line)
        return "\n".join(lines)

    def nvcc_flags(self, unit: Path) -> list[str]:
        """The build flags of ``unit``'s compile_commands.json entry (empty without one)."""
        database = self.root / COMPILE_COMMANDS
        if not database.is_file():
            return []
        for entry in json.loads(database.read_text(encoding="utf-8")):
            if entry["file"] == unit.name:
                return [a for a in entry["arguments"][1:] if a.startswith(_FLAG_PREFIXES)]
        return []

    def main_unit(self) -> Path | None:
        return next((u for u in self.units if defines_main(u.read_text(encoding="utf-8"))), None)


class CorpusError(ValueError):
    """A program folder that does not follow the layout above."""


def read_verify_json(path: Path) -> dict[str, object]:
    """``verify.json``, checked: an object with only the known keys, each of the right type."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except ValueError as error:
        raise CorpusError(f"{path}: not JSON: {error}") from None
    if not isinstance(raw, dict):
        raise CorpusError(f"{path}: must be a JSON object")
    unknown = set(raw) - _VERIFY_KEYS
    if unknown:
        raise CorpusError(f"{path}: unknown keys {sorted(unknown)}")
    args, timing = raw.get("args", []), raw.get("timingLines", [])
    if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
        raise CorpusError(f"{path}: args must be a list of strings")
    if not isinstance(raw.get("expectedExit", 0), int):
        raise CorpusError(f"{path}: expectedExit must be an integer")
    if not isinstance(timing, list) or not all(isinstance(t, str) for t in timing):
        raise CorpusError(f"{path}: timingLines must be a list of regular expressions")
    for expression in timing:
        try:
            re.compile(expression)
        except re.error as error:
            raise CorpusError(f"{path}: timingLines {expression!r}: {error}") from None
    return raw


def load(folder: Path) -> Program:
    files = sorted(p for p in folder.iterdir() if p.is_file())
    config = read_verify_json(folder / VERIFY_JSON) if (folder / VERIFY_JSON).is_file() else {}
    args = config.get("args", [])
    timing = config.get("timingLines", [])
    assert isinstance(args, list) and isinstance(timing, list)
    return Program(
        name=folder.name,
        root=folder,
        units=tuple(p for p in files if p.suffix == ".cu"),
        host_units=tuple(p for p in files if p.suffix == ".cpp"),
        headers=tuple(p for p in files if p.suffix in (".cuh", ".h", ".hpp")),
        data_files=tuple(p for p in files if p.suffix not in _SOURCE_SUFFIXES and p.name not in _NOT_DATA),
        args=tuple(args),
        expected_exit=int(config.get("expectedExit", 0)),  # type: ignore[call-overload]
        timing=tuple(re.compile(t) for t in timing),
    )


def programs(names: list[str] | None = None) -> list[Program]:
    """Every program in the corpus (or the ``names`` given, in that order); KeyError for an unknown name."""
    folders = {p.name: p for p in sorted(ROOT.iterdir()) if p.is_dir() and not p.name.startswith(("_", "."))}
    if names is None:
        return [load(f) for f in folders.values()]
    missing = [n for n in names if n not in folders]
    if missing:
        raise KeyError(f"no such program(s) in {ROOT}: {', '.join(missing)}")
    return [load(folders[n]) for n in names]
