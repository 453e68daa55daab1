"""What a program copied back from the device, compared element by element between two runs.

On the CPU runner the runtime records every device-to-host copy (``cudaMemcpy``/``hipMemcpy`` with
the DeviceToHost kind or the Default kind from a device allocation, their ``Async`` and ``2D`` forms,
``cudaMemcpyFromSymbol``) into a file the runner hands it (``cass_cpu/record.hpp`` says the format),
up to a size cap. :func:`parse` reads such a record; :func:`compare` finds the first element of the
translation's copies that differs from the original's, with the numeric tolerance of the output
comparison for floating-point elements and exactly for integers. A copy whose element type the call
site did not tell (a ``void*`` destination) is compared only as bytes: a difference there is reported
as not judged, never as a failure, since a float off in its last bit would differ too.
"""

from __future__ import annotations

import math
import re
import struct
from collections.abc import Callable, Iterator, Set

import msgspec

from cass_lsp.verify.compare import CompareMode, numbers_close

FORMAT = 2
"""The record's format and comparison: part of a run's key, so a verdict reached without them is not reused."""
ENV_FD = "CASS_CPU_COPY_RECORD_FD"
ENV_CAP = "CASS_CPU_COPY_RECORD_CAP"
_HEADER = re.compile(rb"(copy|cap) (\d+)((?: \w+=\S*)*)\n")
_FORMATS = {"float": "f", "double": "d", "int8": "b", "uint8": "B", "int16": "h", "uint16": "H",
            "int32": "i", "uint32": "I", "int64": "q", "uint64": "Q"}  # fmt: skip
_CHUNK = 1 << 16


class Copy(msgspec.Struct, frozen=True):
    """One device-to-host copy: where in the source it happened and what it brought back."""

    ordinal: int
    line: int
    type: str
    """The host destination's element type ("float", "int32", ...), or "bytes"."""
    buffer: int
    """The ordinal of the device allocation copied from (0: a symbol or memory the runtime did not allocate)."""
    offset: int
    size: int
    allocated_at: int
    """The source line of that allocation."""
    kernel: str
    """The last kernel launched with a pointer into that allocation ("-": none)."""
    data: bytes
    thread: int = 1
    """The host thread that made it, numbered in the order of the threads' first copies."""

    def describe(self) -> str:
        return f"copy {self.ordinal} (line {self.line})"

    def buffer_words(self) -> str:
        if not self.buffer:
            return "from device memory the runtime did not allocate (a symbol)"
        kernel = f", last written by kernel {self.kernel}" if self.kernel != "-" else ", written by no kernel"
        return f"from the buffer allocated at line {self.allocated_at} ({self.size} bytes){kernel}"


class Cap(msgspec.Struct, frozen=True):
    """The copy that would have passed the record's size cap: it and all later ones are not recorded."""

    ordinal: int
    line: int
    size: int
    limit: int

    def describe(self) -> str:
        return (
            f"the copy record stopped at its cap of {_mib(self.limit)} (copy {self.ordinal}, line {self.line},"
            f" {self.size} bytes, and any later copies were not compared)"
        )


class Record(msgspec.Struct, frozen=True):
    copies: list[Copy]
    cap: Cap | None = None
    broken: str | None = None
    """Why the record ends early (it was cut off): what it holds before that is sound."""


class Difference(msgspec.Struct, frozen=True):
    """The first element of the translation's copies that differs from the original's."""

    copy: Copy
    translated: Copy
    element: int
    """Index of the element in the copy."""
    expected: str
    actual: str

    def describe(self) -> str:
        where = self.copy.describe()
        if self.translated.line != self.copy.line:
            where = f"copy {self.copy.ordinal} (line {self.copy.line} of the original, {self.translated.line} of the translation)"
        size = struct_size(self.copy.type)
        index = f"element {self.element}"
        if self.copy.buffer and self.copy.offset:
            index += f" (element {(self.copy.offset // size) + self.element} of the buffer)"
        return (
            f"device-to-host {where}: {index} ({self.copy.type}) differs: original {self.expected},"
            f" translation {self.actual}; copied {self.translated.buffer_words()}"
        )


class Outcome(msgspec.Struct, frozen=True):
    """What comparing two records found: a difference, or how much agreed and what was left out."""

    difference: Difference | None
    compared: int
    notes: tuple[str, ...] = ()

    def describe(self) -> str:
        said = f"{self.compared} device-to-host cop{'y' if self.compared == 1 else 'ies'} compared element by element"
        return "; ".join((said, *self.notes))


def _mib(size: int) -> str:
    return f"{size / (1 << 20):g} MiB"


def struct_size(type_name: str) -> int:
    """The size of one element of ``type_name`` (1 for "bytes")."""
    fmt = _FORMATS.get(type_name)
    return 1 if fmt is None else struct.calcsize(fmt)


def parse(data: bytes) -> Record:
    """The copies of a record (a record cut off keeps what came before the cut)."""
    copies: list[Copy] = []
    at = 0
    while at < len(data):
        header = _HEADER.match(data, at)
        if header is None:
            return Record(copies, broken=f"the copy record is unreadable after copy {len(copies)}")
        kind, ordinal = header.group(1), int(header.group(2))
        fields = dict(field.split(b"=", 1) for field in header.group(3).split())
        at = header.end()
        try:
            if kind == b"cap":
                cap = Cap(ordinal, int(fields[b"line"]), int(fields[b"bytes"]), int(fields[b"limit"]))
                return Record(copies, cap=cap)
            size = int(fields[b"bytes"])
            if at + size > len(data):
                return Record(copies, broken=f"the copy record was cut off in copy {ordinal}")
            copies.append(
                Copy(
                    ordinal, int(fields[b"line"]), fields[b"type"].decode(), int(fields[b"buffer"]), int(fields[b"offset"]),
                    int(fields[b"size"]), int(fields[b"at"]), fields[b"kernel"].decode(errors="replace"), data[at : at + size],
                    int(fields.get(b"thread", b"1")),
                )
            )
        except (KeyError, ValueError):
            return Record(copies, broken=f"the copy record is unreadable in copy {ordinal}")
        at += size
    return Record(copies)


def _differing(a: bytes, b: bytes, size: int) -> Iterator[int]:
    """The element indices (elements of ``size`` bytes) in the chunks where ``a`` and ``b`` differ."""
    chunk = _CHUNK - _CHUNK % size
    for start in range(0, len(a), chunk):
        if a[start : start + chunk] != b[start : start + chunk]:
            yield from range(start // size, min(len(a), start + chunk) // size)


def _values_agree(expected: float | int, actual: float | int, floating: bool, mode: CompareMode, rel_tol: float, abs_tol: float) -> bool:
    if not floating:
        return expected == actual
    if mode == "exact":
        return expected == actual or (math.isnan(expected) and math.isnan(actual))
    return numbers_close(float(expected), float(actual), rel_tol, abs_tol)


def _shown(value: float | int, fmt: str) -> str:
    # a float's shortest round-trip form (printed as a double, 3.1f reads 3.0999999046325684)
    return format(value, ".9g" if fmt == "f" else ".17g") if fmt in "fd" else str(value)


def first_difference(
    expected: Copy, actual: Copy, *, mode: CompareMode, rel_tol: float, abs_tol: float
) -> tuple[int, str, str] | None:
    """The first element where two copies of the same size and type differ: (index, expected, actual)."""
    if expected.data == actual.data:
        return None
    fmt = _FORMATS.get(expected.type)
    if fmt is None:
        raise ValueError("bytes")
    element = struct.Struct(f"={fmt}")
    floating = fmt in "fd"
    for index in _differing(expected.data, actual.data, element.size):
        (want,), (got,) = element.unpack_from(expected.data, index * element.size), element.unpack_from(actual.data, index * element.size)
        if not _values_agree(want, got, floating, mode, rel_tol, abs_tol):
            return index, _shown(want, fmt), _shown(got, fmt)
    return None


def _comparable(expected: Copy, actual: Copy) -> str | None:
    if len(expected.data) != len(actual.data):
        return f"{expected.describe()} brought back {len(expected.data)} bytes in the original and {len(actual.data)} in the translation"
    if expected.type != actual.type:
        return f"{expected.describe()} copies {expected.type} in the original and {actual.type} in the translation"
    fmt = _FORMATS.get(expected.type)
    if fmt is not None and len(expected.data) % struct_size(expected.type):
        return f"{expected.describe()} is not a whole number of {expected.type} elements"
    return None


def _threaded(*records: Record) -> bool:
    """Whether copies came from several host threads: their order across threads is the scheduler's."""
    return any(len({c.thread for c in r.copies}) > 1 for r in records)


def _paired(reference: list[Copy], other: list[Copy], agree: Callable[[Copy, Copy], bool]) -> list[Copy]:
    """``other`` reordered so that each copy stands against the copy of ``reference`` it agrees with:
    the first unused one of the same shape (element type and size; the call site's line is the
    translation's own) whose elements agree, else the first unused one of that shape, so a copy
    that agrees with none is still compared and named."""
    unused = list(other)
    paired: list[Copy] = []
    for want in reference:
        site = [c for c in unused if (c.type, len(c.data)) == (want.type, len(want.data))]
        match = next((c for c in site if agree(want, c)), site[0] if site else None)
        if match is None:
            break
        unused.remove(match)
        paired.append(match)
    return paired + unused


def _agree(mode: CompareMode, rel_tol: float, abs_tol: float) -> Callable[[Copy, Copy], bool]:
    def agree(a: Copy, b: Copy) -> bool:
        try:
            return first_difference(a, b, mode=mode, rel_tol=rel_tol, abs_tol=abs_tol) is None
        except ValueError:
            return a.data == b.data

    return agree


def varying(first: Record, *others: Record, mode: CompareMode, rel_tol: float, abs_tol: float) -> set[int] | str:
    """The copies (ordinals) that differ between the original's first run and any of its ``others``,
    or why two runs' records cannot be matched copy for copy. Copies made by several host threads
    are matched by content within each call site, not by order."""
    moving: set[int] = set()
    for second in others:
        if len(first.copies) != len(second.copies):
            return f"the original made {len(first.copies)} and then {len(second.copies)} device-to-host copies in two runs"
        seconds = _paired(first.copies, second.copies, _agree(mode, rel_tol, abs_tol)) if _threaded(first, second) else second.copies
        for a, b in zip(first.copies, seconds, strict=True):
            if _comparable(a, b) is not None:
                return f"{a.describe()} is not the same in two runs of the original"
            try:
                if first_difference(a, b, mode=mode, rel_tol=rel_tol, abs_tol=abs_tol) is not None:
                    moving.add(a.ordinal)
            except ValueError:
                moving.add(a.ordinal)
    return moving


def compare(
    original: Record,
    translation: Record,
    *,
    skip: Set[int] = frozenset(),
    mode: CompareMode = "numeric",
    rel_tol: float = 1e-5,
    abs_tol: float = 1e-8,
) -> Outcome:
    """The first differing element of the two records' copies, in order, or how many copies agreed
    and what could not be compared (a different count of copies, a copy of another size, a cap)."""
    notes: list[str] = []
    if original.cap is not None and original.cap == translation.cap:
        notes.append(f"on both sides {original.cap.describe()}")
    else:
        notes.extend(f"{side}: {r.cap.describe()}" for side, r in (("original", original), ("translation", translation)) if r.cap)
    notes.extend(f"{side}: {r.broken}" for side, r in (("original", original), ("translation", translation)) if r.broken)
    complete = all(r.cap is None and r.broken is None for r in (original, translation))
    if complete and len(original.copies) != len(translation.copies):
        notes.append(
            f"copies not compared: the original made {len(original.copies)} device-to-host copies, the"
            f" translation {len(translation.copies)}"
        )
        return Outcome(None, 0, tuple(notes))
    compared, unjudged = 0, 0
    translated = translation.copies
    if _threaded(original, translation):
        translated = _paired(original.copies, translation.copies, _agree(mode, rel_tol, abs_tol))
        threads = max(len({c.thread for c in r.copies}) for r in (original, translation))
        notes.append(f"{threads} host threads made copies: each was compared with its counterpart of the same"
                     " shape by content, not by the threads' order")
    for expected, actual in zip(original.copies, translated, strict=False):
        why = _comparable(expected, actual)
        if why is not None:
            notes.append(f"copies not compared from {expected.describe()} on: {why}")
            return Outcome(None, compared, tuple(notes))
        if expected.ordinal in skip:
            continue
        try:
            found = first_difference(expected, actual, mode=mode, rel_tol=rel_tol, abs_tol=abs_tol)
        except ValueError:
            unjudged += expected.data != actual.data
            compared += expected.data == actual.data
            continue
        if found is not None:
            index, want, got = found
            return Outcome(Difference(expected, actual, index, want, got), compared, tuple(notes))
        compared += 1
    if skip:
        notes.append(f"{len(skip)} cop{'y varies' if len(skip) == 1 else 'ies vary'} between runs of the original and"
            f" {'was' if len(skip) == 1 else 'were'} not compared")
    if unjudged:
        notes.append(
            f"{unjudged} cop{'y' if unjudged == 1 else 'ies'} of untyped (void*) data differ in bytes, not judged"
            " (the element type is unknown)"
        )
    return Outcome(None, compared, tuple(notes))

