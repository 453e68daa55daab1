"""Line numbers of a rewritten text mapped back to the text it was rewritten from.

The AMD listing of a ``.cu`` file is compiled from its rule translation; the translation's edits
(byte ranges of the original and their replacement) say exactly how lines moved.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol


class ByteEdit(Protocol):
    @property
    def start_byte(self) -> int: ...
    @property
    def end_byte(self) -> int: ...
    @property
    def new_text(self) -> str: ...


class LineMap:
    """Rewritten line (1-based) → original line (1-based)."""

    def __init__(self, original: bytes, edits: Iterable[ByteEdit]) -> None:
        lines = [1]  # lines[k] = original line of rewritten line k + 1
        line = 1  # original line at `pos`
        line_start = 0  # original offset where the current rewritten line began (-1: inside a replacement)
        pos = 0
        for edit in sorted(edits, key=lambda e: (e.start_byte, e.end_byte)):
            if edit.start_byte < pos:
                continue  # overlapping edits are not produced by the translator; ignore defensively
            offset = original.find(b"\n", pos, edit.start_byte)
            while offset >= 0:
                line += 1
                lines.append(line)
                line_start = offset + 1
                offset = original.find(b"\n", offset + 1, edit.start_byte)
            removed = original.count(b"\n", edit.start_byte, edit.end_byte)
            pieces = edit.new_text.split("\n")
            if edit.start_byte == line_start and pieces == [""]:
                # A deletion at the start of a line: the line now begins with what follows it.
                lines[-1] = line + removed
                line_start = edit.end_byte
            for i in range(1, len(pieces)):
                if i == len(pieces) - 1 and pieces[-1] == "":
                    lines.append(line + removed)
                    line_start = edit.end_byte
                else:
                    # New lines inside a replacement follow the lines it replaced.
                    lines.append(line + min(i, removed))
                    line_start = -1
            line += removed
            pos = edit.end_byte
        for _ in range(original.count(b"\n", pos)):
            line += 1
            lines.append(line)
        self._lines = lines

    def with_line_inserted(self, line: int) -> LineMap:
        """The map after a line is inserted before rewritten line ``line`` (it maps where that line does)."""
        shifted = LineMap(b"", ())
        at = min(max(line, 1), len(self._lines)) - 1
        shifted._lines = [*self._lines[:at], self._lines[at], *self._lines[at:]]
        return shifted

    def original(self, line: int) -> int:
        if line < 1:
            return line
        return self._lines[min(line, len(self._lines)) - 1]
