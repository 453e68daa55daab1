"""The generic, line-oriented listing builder; dialects only describe their patterns.

It owns the hard parts every assembly text shares: code sections, function and local labels, source
line markers (single ``.loc``-style ones, or nvdisasm's chained "inlined at" groups), the file table,
and attaching the current source location to each instruction. A :class:`Dialect` is a handful of
regular expressions and two flags (see :mod:`.sass` and :mod:`.rdna`).
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Callable

from cass_lsp.asm.listing import Function, Instruction, SourceLoc


@dataclasses.dataclass(frozen=True)
class Dialect:
    name: str
    section: re.Pattern[str]
    """A section switch; group ``name`` is the section name."""
    code_section: re.Pattern[str]
    """Section names that hold code (matched against group ``name`` of :attr:`section`)."""
    label: re.Pattern[str]
    """A label line; group ``name``."""
    local_label: re.Pattern[str]
    """Label names that are inside a function rather than starting one."""
    branch_label: re.Pattern[str]
    """Local labels worth keeping (branch targets), as opposed to debug-info anchors."""
    instruction: re.Pattern[str]
    """Groups ``opcode``, ``operands`` and optionally ``address`` (hex) and ``pred``."""
    marker: re.Pattern[str]
    """A source-line marker, matched against the line without its indentation; groups ``file`` and
    ``line``, optionally ``column``, ``atfile``, ``atline``."""
    chained_markers: bool
    """True: consecutive markers are one inline chain, innermost first (nvdisasm -gi).
    False: the last marker wins (``.loc``)."""
    file_directive: re.Pattern[str] | None = None
    """Numbered file table entries; groups ``num``, ``dir``, optional ``name``."""
    kernel: re.Pattern[str] | None = None
    """A line that marks its group ``name`` as a kernel entry."""
    no_line: Callable[[str, str, str | None], bool] = lambda opcode, operands, label: False
    """(opcode, operands, label just before) → True for padding that belongs to no source line."""


@dataclasses.dataclass
class Built:
    functions: list[Function]
    labels: dict[str, int]
    """Every label → global instruction position (instructions counted across all functions)."""
    starts: list[int]
    """Global position of each function's first instruction."""
    files: dict[int, str]


_Loc = tuple[str, int, int]


def build(text: str, dialect: Dialect, map_path: Callable[[str], str] = os.path.normpath) -> Built:
    """Split ``text`` into functions of instructions carrying source locations."""
    functions: list[Function] = []
    kernels: set[str] = set()
    labels: dict[str, int] = {}
    starts: list[int] = []
    files: dict[int, str] = {}
    comp_dir = ""
    path_cache: dict[str, str] = {}
    d = dialect
    in_code = False
    current: Function | None = None
    chain: list[_Loc] = []
    chain_open = False  # the previous line was a marker: a chained marker extends the chain
    last_label: str | None = None
    position = 0

    def mapped(path: str) -> str:
        if path not in path_cache:
            path_cache[path] = map_path(path)
        return path_cache[path]

    sites: list[SourceLoc] = []  # chain[1:] as SourceLocs, rebuilt when the chain changes

    for raw in text.splitlines():
        stripped = raw.lstrip()
        if not stripped:
            continue
        if raw[0] not in " \t":
            # Column 0: a label (functions, branch targets, debug anchors), or a comment / metadata.
            chain_open = False
            m = d.label.match(raw)
            if m is None or not in_code:
                continue
            name = m.group("name")
            if d.local_label.match(name):
                labels[name] = position
                last_label = name
                if current is not None and d.branch_label.match(name):
                    current.labels[name] = len(current.instructions)
            else:
                current = Function(name=name, demangled=name, kind="device")
                functions.append(current)
                starts.append(position)
                labels[name] = position
                chain, sites = [], []
                last_label = None
            continue
        head = stripped[0]
        if head == "." or stripped.startswith("//"):
            # Directives and comments: line markers, sections, the file table, kernel entries.
            m = d.marker.match(stripped)
            if m:
                chain = _extend(chain if d.chained_markers and chain_open else [], m, files, mapped)
                sites = [SourceLoc(f, ln, c) for f, ln, c in chain[1:]]
                chain_open = True
                continue
            chain_open = False
            m = d.section.match(raw)
            if m:
                in_code = bool(d.code_section.search(m.group("name")))
                continue
            m = d.file_directive.match(raw) if d.file_directive is not None else None
            if m:
                number, directory, name = int(m.group("num")), m.group("dir"), m.group("name")
                if number == 0:
                    comp_dir = directory
                # DWARF 5: a relative directory is relative to the compilation directory (entry 0's)
                path = os.path.join(comp_dir, directory, name) if name else os.path.join(comp_dir, directory)
                files[number] = path
                continue
            m = d.kernel.match(raw) if d.kernel is not None else None
            if m:
                kernels.add(m.group("name"))
            continue
        chain_open = False
        if not in_code or current is None:
            continue
        m = d.instruction.match(raw)
        if m is None:
            continue
        opcode = m.group("opcode")
        operands = (m.group("operands") or "").strip()
        groups = m.groupdict()
        pred = (groups.get("pred") or "").strip()
        address = groups.get("address")
        text_ = f"{pred} {opcode}" if pred else opcode
        ins = Instruction(
            index=len(current.instructions),
            address=int(address, 16) if address else None,
            opcode=opcode,
            operands=operands,
            text=f"{text_} {operands}" if operands else text_,
        )
        if chain and not d.no_line(opcode, operands, last_label):
            own = chain[0]
            ins.file, ins.line, ins.column = own[0], own[1], own[2] or None
            if sites:
                ins.inlined_at = list(sites)
        current.instructions.append(ins)
        position += 1
        last_label = None
    for function in functions:
        if function.name in kernels:
            function.kind = "kernel"
    return Built(functions, labels, starts, files)


def _extend(chain: list[_Loc], m: re.Match[str], files: dict[int, str], mapped: Callable[[str], str]) -> list[_Loc]:
    groups = m.groupdict()
    line = int(m.group("line"))
    if line == 0:
        # line 0: compiler-generated code that belongs to no source line
        return []
    file = _file(m.group("file"), files)
    column = int(groups["column"]) if groups.get("column") else 0
    chain = [*chain] if chain and chain[-1][:2] == (mapped(file), line) else [*chain, (mapped(file), line, column)]
    if groups.get("atfile"):
        # The call site; the next chained marker usually repeats it as its own location.
        chain.append((mapped(groups["atfile"]), int(groups["atline"]), 0))
    return chain


def _file(key: str, files: dict[int, str]) -> str:
    return files.get(int(key), key) if key.isdigit() else key
