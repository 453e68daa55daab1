"""One listing structure for every GPU assembly dialect, and the questions asked of it.

A :class:`Listing` is what a real compiler produced for one file and one target: functions with
their instructions, each instruction with the source location the compiler's line table gives (and
the chain of call sites it was inlined through), and each function with its resource usage.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Literal

import msgspec

from cass_lsp.compile.diagnostic import CompilerDiagnostic


class SourceLoc(msgspec.Struct, frozen=True, rename="camel"):
    file: str
    line: int
    column: int = 0


class Instruction(msgspec.Struct, rename="camel"):
    index: int
    """Position in its function."""
    address: int | None
    """Byte offset in the function where the listing has one (SASS); None for assembler text."""
    opcode: str
    operands: str
    text: str
    """The instruction as the tool printed it, predicate included."""
    file: str | None = None
    line: int | None = None
    column: int | None = None
    inlined_at: list[SourceLoc] = msgspec.field(default_factory=list)
    """Call sites this instruction was inlined through, innermost first."""

    def locations(self) -> Iterator[SourceLoc]:
        """Its own location, then every call site it was inlined through."""
        if self.file is not None and self.line is not None:
            yield SourceLoc(self.file, self.line, self.column or 0)
        yield from self.inlined_at


class Resources(msgspec.Struct, rename="camel", omit_defaults=True):
    registers: int | None = None
    """Registers per thread (NVIDIA) or VGPRs per lane (AMD, architected + accumulation)."""
    sgprs: int | None = None
    vgprs: int | None = None
    agprs: int | None = None
    shared_bytes: int | None = None
    """Static ``__shared__`` memory / LDS per block."""
    scratch_bytes: int | None = None
    """Per-thread stack frame (NVIDIA) / private segment (AMD)."""
    spill_store_bytes: int | None = None
    spill_load_bytes: int | None = None
    sgpr_spills: int | None = None
    vgpr_spills: int | None = None
    barriers: int | None = None
    wave_size: int | None = None
    dynamic_stack: bool | None = None
    occupancy: int | None = None
    occupancy_unit: str | None = None
    """What :attr:`occupancy` counts, e.g. ``waves/SIMD`` (compiler's figure) or
    ``warps/SM (register-limited)`` (estimated)."""


class Function(msgspec.Struct, rename="camel"):
    name: str
    """The symbol as the tool printed it (mangled)."""
    demangled: str
    kind: Literal["kernel", "device"]
    instructions: list[Instruction] = msgspec.field(default_factory=list)
    resources: Resources = msgspec.field(default_factory=Resources)
    labels: dict[str, int] = msgspec.field(default_factory=dict)
    """Branch-target labels → index of the instruction they precede."""

    @property
    def short_name(self) -> str:
        """``block_sum`` for ``block_sum(float const*, float*, int)``; template arguments kept."""
        return base_name(self.demangled)


class Listing(msgspec.Struct, tag="listing", tag_field="kind", rename="camel"):
    target: str
    dialect: Literal["sass", "amdgcn"]
    source: str
    """The file this listing is for, as the user knows it (temp paths already mapped back)."""
    functions: list[Function]
    toolchain: str
    command: list[str] = msgspec.field(default_factory=list)
    translated: bool = False
    """True when the source was first rewritten (CUDA → HIP by the rule translation)."""
    note: str | None = None
    diagnostics: list[CompilerDiagnostic] = msgspec.field(default_factory=list)
    compile_seconds: float = 0.0


class CompileFailure(msgspec.Struct, tag="failure", tag_field="kind", rename="camel"):
    target: str
    source: str
    diagnostics: list[CompilerDiagnostic]
    output: str
    """The tail of what the tools printed."""
    command: list[str] = msgspec.field(default_factory=list)
    timed_out: bool = False
    cancelled: bool = False
    bounded: bool = False
    """A bound of ``cass.compilerLimits`` stopped the compiler (``note`` says which)."""
    translated: bool = False
    note: str | None = None


class Unavailable(msgspec.Struct, tag="unavailable", tag_field="kind", rename="camel"):
    """A target that could not be tried: a tool is missing (``hint`` says how to install it)."""

    target: str
    message: str
    hint: str | None = None


ListingResult = Listing | CompileFailure
TargetResult = Listing | CompileFailure | Unavailable


def base_name(demangled: str) -> str:
    """``transform<float, Saxpy>`` for ``void transform<float, Saxpy>(float const*, ...)``."""
    depth = 0
    head_end = len(demangled)
    last_space = -1
    skip_to = demangled.find("operator()") + len("operator()") if "operator()" in demangled else 0
    for i, ch in enumerate(demangled):
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        elif depth == 0 and ch == " ":
            last_space = i
        elif depth == 0 and ch == "(" and i >= skip_to:
            head_end = i
            break
    # A template instance starts with its return type: drop everything up to the last top-level space.
    return demangled[last_space + 1 if last_space < head_end else 0 : head_end].strip()


def find_functions(listing: Listing, name: str) -> list[Function]:
    """Functions called ``name``: mangled, demangled, or the plain name (every template instance)."""
    exact = [f for f in listing.functions if name in (f.name, f.demangled)]
    if exact:
        return exact
    plain = name.split("<", 1)[0]
    return [f for f in listing.functions if f.short_name == name or f.short_name.split("<", 1)[0] == plain]


def instructions_at(listing: Listing, file: str, line: int) -> list[tuple[Function, Instruction]]:
    """Instructions generated for ``file:line``, directly or through code inlined at that line."""
    target = os.path.normpath(file)  # listing paths are normalized when the listing is built
    found = []
    for function in listing.functions:
        for ins in function.instructions:
            if ins.line == line and ins.file == target:
                found.append((function, ins))
                continue
            for loc in ins.inlined_at:
                if loc.line == line and loc.file == target:
                    found.append((function, ins))
                    break
    return found


def user_location(ins: Instruction, file: str) -> SourceLoc | None:
    """The first location of ``ins`` (own, then call sites) that lies in ``file``."""
    target = os.path.normpath(file)
    for loc in ins.locations():
        if loc.file == target:
            return loc
    return None
