"""Did the translation compute what the original computed? Exit codes and standard output compared.

"exact" compares every line as text. "numeric" compares text exactly but floating-point numbers within
``|a - b| <= abs_tol + rel_tol * max(|a|, |b|)``: a HIP build may contract, reorder or use other
fast-math and rounding than nvcc did. Integers always compare exactly (an off-by-one count is a bug,
whatever its size), and so do NaN with NaN and infinities of the same sign. "exit-code" compares
the exit codes alone. In every mode, what the ``ignore`` patterns match (addresses, timings with
their units) is left out, and so are the numbers in the columns of a table whose header names a unit
of time or rate (:mod:`.tables`: ``name  time(ms)  GB/s`` over rows of bare numbers), and :class:`Noise`: what differed between two runs of the original
itself (a whole line, or the numbers of a line whose text is otherwise the same, such as a timing
table row ``base  26.027  0.2``) says nothing about the translation.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Literal

import msgspec

from cass_lsp.verify.tables import mask_timing_columns

_BLANKS = re.compile(r"[ \t]+")
_NUMBER = re.compile(
    r"(?<![\w.])([-+]?(?:\d+\.\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?|\d+[eE][-+]?\d+|\d+|nan|inf(?:inity)?))(?![\w.])",
    re.IGNORECASE,
)
_SHOWN = 120


CompareMode = Literal["exact", "numeric", "exit-code"]


class Noise(msgspec.Struct, frozen=True, rename="camel"):
    """What differs between two runs of the original (0-based output lines)."""

    lines: tuple[int, ...] = ()
    """Lines whose text differs: not compared."""
    numbers: tuple[int, ...] = ()
    """Lines whose numbers differ but whose text is the same: only the text is compared."""

    def describe(self) -> str:
        count = len(self.lines) + len(self.numbers)
        if not count:
            return ""
        return f"{count} line(s) vary between runs of the original and were not compared"


class Mismatch(msgspec.Struct, frozen=True, rename="camel"):
    what: Literal["exit code", "output"]
    line: int
    """0-based line of the output (0 for the exit code)."""
    expected: str
    actual: str

    def describe(self) -> str:
        if self.what == "exit code":
            return f"exit code differs: original {self.expected}, translation {self.actual}"
        return f"output line {self.line + 1} differs: expected {self.expected!r}, got {self.actual!r}"


def _is_float(token: str) -> bool:
    lower = token.lower()
    return any(c in lower for c in ".e") or lower.lstrip("+-") in ("nan", "inf", "infinity")


def _close(expected: str, actual: str, rel_tol: float, abs_tol: float) -> bool:
    if not (_is_float(expected) or _is_float(actual)):
        return int(expected) == int(actual)
    return numbers_close(float(expected), float(actual), rel_tol, abs_tol)


def numbers_close(a: float, b: float, rel_tol: float, abs_tol: float) -> bool:
    """Two floating-point values within the tolerance; NaN only with NaN, an infinity only with itself."""
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= abs_tol + rel_tol * max(abs(a), abs(b))


def lines_agree(expected: str, actual: str, rel_tol: float, abs_tol: float, *, numbers: bool = True) -> bool:
    """One line of output against another: the text between numbers exactly but for the length of
    its runs of blanks, the numbers as above (or, with ``numbers`` False, not at all). A printf
    field width pads a number that gains a digit with one blank fewer (``%9.3f``: ``"   8.284"``,
    ``"  13.133"``), so the padding is not the program's text."""
    want, got = _NUMBER.split(expected), _NUMBER.split(actual)
    if len(want) != len(got):
        return False
    # re.split with one group alternates text, number, text, …
    for index, (w, g) in enumerate(zip(want, got, strict=True)):
        if index % 2 == 0:
            if w != g and _BLANKS.sub(" ", w) != _BLANKS.sub(" ", g):
                return False
        elif numbers and not _close(w, g, rel_tol, abs_tol):
            return False
    return True


def _lines(output: bytes, ignore: Sequence[re.Pattern[str]]) -> list[str]:
    return _kept(output.decode("utf-8", "replace").splitlines(), ignore)


def _kept(lines: list[str], ignore: Sequence[re.Pattern[str]]) -> list[str]:
    """What is compared of each line: the timing columns of tables and what ``ignore`` matches masked."""
    return [_masked(line, ignore) for line in mask_timing_columns(lines)]


def noise(first: bytes, second: bytes, ignore: Sequence[re.Pattern[str]] = ()) -> Noise | str:
    """What differs between two runs' outputs, or why the runs cannot be told apart line by line
    (their lengths differ)."""
    a, b = _lines(first, ignore), _lines(second, ignore)
    if len(a) != len(b):
        return f"the original printed {len(a)} and then {len(b)} lines in two runs"
    lines: list[int] = []
    numbers: list[int] = []
    for index, (x, y) in enumerate(zip(a, b, strict=True)):
        if x == y:
            continue
        # a line whose numbers vary is a measurement: none of its numbers (bandwidth derived from
        # a time, say) is evidence, even one that happened to repeat
        (numbers if lines_agree(x, y, 0.0, 0.0, numbers=False) else lines).append(index)
    return Noise(tuple(lines), tuple(numbers))


def _masked(line: str, ignore: Sequence[re.Pattern[str]]) -> str:
    for pattern in ignore:
        line = pattern.sub("…", line)
    return line


def ignore_patterns(expressions: Sequence[str]) -> list[re.Pattern[str]]:
    """The compiled ``compareIgnore`` expressions; ValueError naming a bad one."""
    compiled = []
    for expression in expressions:
        try:
            compiled.append(re.compile(expression))
        except re.error as error:
            raise ValueError(f"cass.verification.compareIgnore: {expression!r} is not a regular expression: {error}") from None
    return compiled


def _clip(text: str) -> str:
    return text if len(text) <= _SHOWN else text[:_SHOWN] + "…"


def merge_noise(base: Noise, *others: Noise | str) -> Noise:
    """``base`` widened by other observations of what varies (a run pair of other lengths adds nothing)."""
    lines = set(base.lines)
    numbers = set(base.numbers)
    for other in others:
        if isinstance(other, Noise):
            lines.update(other.lines)
            numbers.update(other.numbers)
    return Noise(tuple(sorted(lines)), tuple(sorted(numbers - lines)))


def compare(
    expected_code: int | None,
    expected_out: bytes,
    actual_code: int | None,
    actual_out: bytes,
    *,
    mode: CompareMode = "numeric",
    rel_tol: float = 1e-5,
    abs_tol: float = 1e-8,
    ignore: Sequence[re.Pattern[str]] = (),
    noise: Noise | None = None,
) -> Mismatch | None:
    """The first difference between the original's run and the translation's, or None."""
    if expected_code != actual_code:
        return Mismatch("exit code", 0, str(expected_code), str(actual_code))
    if mode == "exit-code":
        return None
    noise = noise or Noise()
    skipped, numbers_only = set(noise.lines), set(noise.numbers)
    want = expected_out.decode("utf-8", "replace").splitlines()
    got = actual_out.decode("utf-8", "replace").splitlines()
    want_kept, got_kept = _kept(want, ignore), _kept(got, ignore)
    end = "<end of output>"
    for index in range(max(len(want), len(got))):
        w = want[index] if index < len(want) else end
        g = got[index] if index < len(got) else end
        if index in skipped and index < len(want) and index < len(got):
            continue
        w_kept = want_kept[index] if index < len(want) else end
        g_kept = got_kept[index] if index < len(got) else end
        if index in numbers_only:
            same = lines_agree(w_kept, g_kept, rel_tol, abs_tol, numbers=False)
        elif mode == "exact":
            same = w_kept == g_kept
        else:
            same = lines_agree(w_kept, g_kept, rel_tol, abs_tol)
        if not same:
            return Mismatch("output", index, _clip(w), _clip(g))
    return None
