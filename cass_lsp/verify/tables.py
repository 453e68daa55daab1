"""Timing columns of tables whose units sit only in the header row.

Benchmarks print ``name time(ms) GB/s`` once, then rows of bare numbers (``copy 0.52 123.4``): no
number of a row carries its unit, so the unit patterns of ``compareIgnore`` cannot see that they are
measurements. Those columns are masked here: a *header* is a line of two or more columns, none of
them a number, at least one naming a unit of time or rate (``time(ms)``, ``Time [us]``, ``GB/s``,
``GFLOPS``, ``bw_GB/s``); its *rows* are the lines after it that hold a number and either have as
many fields as the header has columns (matched by position) or, in an aligned header (laid out by
widths: two spaces or a tab between some columns, whose names may hold spaces), fields whose spans
on the line overlap a column's (the row aligned too). The table ends at the first other line. Only
numbers are masked: a row's text still compares, and a line of prose that happens to end in a unit
(``time in ms``) masks no line shaped otherwise.
"""

from __future__ import annotations

import itertools
import re

import msgspec

from cass_lsp.core.settings import TIME_AND_RATE_UNITS

MASK = "…"
_UNIT_COLUMN = re.compile(r"(?i)(?:^|[\s(\[_/-])" + TIME_AND_RATE_UNITS + r"[)\]]?$")
_NUMBER = re.compile(r"(?i)[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?|[-+]?(?:nan|inf(?:inity)?)")
# a header column: words, with a unit in brackets after a space kept with them (`Time (ms)`)
_COLUMN = re.compile(r"[^\s(\[]+(?:\s*[(\[][^)\]\s]*[)\]])?|[(\[][^)\]\s]*[)\]]")
_FIELD = re.compile(r"\S+")
_GAP = re.compile(r" {2,}|\s*\t\s*")

Span = tuple[int, int]


class _Header(msgspec.Struct, frozen=True):
    columns: int
    timed: tuple[int, ...]
    """The indexes of the columns naming a unit."""
    spans: tuple[Span, ...]
    """Their spans on the line."""
    aligned: bool


def _header(line: str) -> _Header | None:
    """The table header ``line`` is, or None."""
    columns = list(_COLUMN.finditer(line))
    if len(columns) < 2 or any(_NUMBER.fullmatch(c.group()) for c in columns):
        return None
    timed = [i for i, c in enumerate(columns) if _UNIT_COLUMN.search(c.group())]
    if not timed:
        return None
    aligned = any(_GAP.fullmatch(line[a.end() : b.start()]) for a, b in itertools.pairwise(columns))
    spans = tuple((columns[i].start(), columns[i].end()) for i in timed)
    return _Header(len(columns), tuple(timed), spans, aligned)


def mask_timing_columns(lines: list[str]) -> list[str]:
    """``lines`` with the numbers in the timing columns of their tables replaced by :data:`MASK`."""
    out: list[str] = []
    header: _Header | None = None
    for line in lines:
        found = _header(line)
        if found is not None:
            header = found
            out.append(line)
            continue
        row = _row_fields(line, header) if header is not None and _NUMBER.search(line) else None
        if row is None:
            header = None
            out.append(line)
            continue
        for field in reversed(row):  # from the right: earlier offsets stay valid
            if _NUMBER.fullmatch(field.group()):
                line = line[: field.start()] + MASK + line[field.end() :]
        out.append(line)
    return out


def _row_fields(line: str, header: _Header) -> list[re.Match[str]] | None:
    """The fields of the row ``line`` in the header's timing columns; None: ``line`` is no row."""
    fields = list(_FIELD.finditer(line))
    if len(fields) == header.columns:
        return [fields[i] for i in header.timed]
    if not header.aligned or not _GAP.search(line.strip()):
        return None
    return [f for f in fields if any(f.start() < end and start < f.end() for start, end in header.spans)]
