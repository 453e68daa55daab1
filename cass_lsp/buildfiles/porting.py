"""What porting one build file produces, and the settings every build system's rules share.

A build file is rewritten as text: each rule yields :class:`Edit` byte ranges (never a re-printed
file, so comments, layout and everything no rule touches stay as written) and a :class:`Finding`
with its line wherever the port can behave differently from the original or could not be made.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Literal

Severity = Literal["error", "warning", "info"]
Compiler = Literal["hipcc", "clang"]

REWRITTEN = "build-rewrite"
"""A rewrite whose behaviour can differ from the original's (the message says how)."""
UNMAPPED = "build-unmapped"
"""Something the rules cannot port: it stays as written."""


@dataclasses.dataclass(frozen=True)
class Settings:
    """How a tree's build files are ported."""

    arches: tuple[str, ...] = ("gfx1100",)
    """The AMD targets (``cass.target.arch``; several allowed)."""
    libraries: str = "hip"
    """``hip``: CUDA's libraries become the hip* layers; ``roc``: rocBLAS, rocSPARSE, … (``--roc``)."""
    renamed_sources: bool = True
    """The tree's ``.cu`` files become ``.hip`` (``--out-dir``); False: they keep their names
    (``--in-place``, the editor) and the build compiles them as HIP explicitly."""
    compiler: Compiler = "hipcc"
    """What a Makefile's nvcc becomes: ``hipcc``, or ``clang++ -x hip``."""
    reverse: bool = False
    nvidia_arch: str = "sm_80"
    """With ``reverse``: the NVIDIA target the AMD ones become."""
    families: frozenset[str] = frozenset()
    """The API-table library families the tree's sources use (``blas``, ``cub``, …): their packages
    are found where the CUDA toolkit was."""
    toolkit_found: bool = False
    """Some CMake file of the tree finds the CUDA toolkit (``find_package(CUDAToolkit)``): HIP's
    packages are found there; else each file finds those its HIP targets need."""


@dataclasses.dataclass(frozen=True)
class Finding:
    line: int  # 1-based
    column: int  # 1-based
    severity: Severity
    code: str
    message: str


@dataclasses.dataclass(frozen=True)
class Edit:
    start: int  # character offsets into the text
    end: int
    text: str


@dataclasses.dataclass
class Result:
    """A build file's port: the new text, what changed (``stats``: rule kind -> count), findings."""

    text: str
    stats: dict[str, int]
    findings: list[Finding]

    @property
    def changed(self) -> bool:
        return sum(self.stats.values()) > 0


class Rewriter:
    """One file's port in progress: its edits, findings and counts of rewrites by kind."""

    def __init__(self, text: str, settings: Settings) -> None:
        self.text = text
        self.settings = settings
        self.edits: list[Edit] = []
        self.findings: list[Finding] = []
        self.stats: dict[str, int] = {}

    def find(self, offset: int, severity: Severity, message: str, code: str = REWRITTEN) -> None:
        line, column = line_column(self.text, offset)
        self.findings.append(Finding(line, column, severity, code, message))

    def count(self, kind: str) -> None:
        self.stats[kind] = self.stats.get(kind, 0) + 1

    def insert(self, offset: int, text: str, kind: str) -> None:
        self.edits.append(Edit(offset, offset, text))
        self.count(kind)

    def replace(self, start: int, end: int, new: str, kind: str) -> None:
        """``[start, end)`` becomes ``new``, counted under ``kind`` when it differs; a word removed
        takes the blanks before it along."""
        while not new and start > 0 and self.text[start - 1] in " \t":
            start -= 1
        if self.text[start:end] != new:
            self.edits.append(Edit(start, end, new))
            self.count(kind)

    def result(self) -> Result:
        return Result(apply(self.text, self.edits), self.stats, sorted(self.findings, key=lambda f: (f.line, f.column)))


def apply(text: str, edits: Iterable[Edit]) -> str:
    """``text`` with ``edits`` applied; edits are non-overlapping (a later one inside an earlier
    one's range is a rule defect and raises)."""
    out: list[str] = []
    position = 0
    for edit in sorted(edits, key=lambda e: (e.start, e.end)):
        if edit.start < position:
            raise ValueError(f"overlapping build-file edits at offset {edit.start}")
        out.append(text[position : edit.start])
        out.append(edit.text)
        position = edit.end
    out.append(text[position:])
    return "".join(out)


def line_column(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of a character offset."""
    line_start = text.rfind("\n", 0, offset) + 1
    return text.count("\n", 0, offset) + 1, offset - line_start + 1
