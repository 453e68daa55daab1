"""Translation pairs: a CUDA original and the HIP translation it is verified against.

``DIR/foo.cu`` pairs with the first existing file that a pattern of
``cass.verification.translationPatterns`` names, relative to ``DIR`` (``{stem}.hip`` by default,
``hip/{stem}.cpp`` or ``../hip/{stem}.hip`` in projects that keep ports apart); ``{stem}`` is ``foo``
and ``{name}`` is ``foo.cu``. With none, the original is verified against its in-memory rule
translation. The lookup also runs backwards, so a saved translation finds its original.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

import msgspec

from cass_lsp.core.filekinds import CUDA_SUFFIX

ORIGINAL_SUFFIX = CUDA_SUFFIX


class Pair(msgspec.Struct, frozen=True):
    original: str
    """Absolute path of the CUDA original."""
    translation: str | None
    """Absolute path of the HIP translation; None: the original's in-memory rule translation."""

    @property
    def files(self) -> tuple[str, ...]:
        return (self.original,) if self.translation is None else (self.original, self.translation)

    def describe(self) -> str:
        original = os.path.basename(self.original)
        if self.translation is None:
            return f"{original} (rule translation)"
        return f"{original} ↔ {os.path.basename(self.translation)}"


def is_original(path: str | Path) -> bool:
    return str(path).lower().endswith(ORIGINAL_SUFFIX)


def _absolute(path: str | Path) -> Path:
    return Path(os.path.normpath(Path(path).expanduser().absolute()))


_PLACEHOLDER = re.compile(r"\{stem\}|\{name\}")
_BRACED = re.compile(r"\{[^{}]*\}")


def check_patterns(patterns: Iterable[str]) -> None:
    """ValueError naming the first pattern whose braces are not exactly ``{stem}`` or ``{name}``
    (``{foo}`` would raise KeyError at every lookup; ``{stem!r}``, ``{stem[0]}`` or ``{{`` would
    format one way and be matched backwards another)."""
    for pattern in patterns:
        rest = _PLACEHOLDER.sub("", pattern)
        if "{" not in rest and "}" not in rest:
            continue
        braced = _BRACED.search(rest)
        what = f"{braced.group()} is not a placeholder" if braced else 'a lone "{" or "}"'
        raise ValueError(f'"{pattern}": {what}; the placeholders are {{stem}} (foo for foo.cu) and {{name}} (foo.cu)')


def translation_candidates(original: str | Path, patterns: Sequence[str]) -> list[Path]:
    """Where ``original``'s translation may live, in the patterns' order."""
    file = _absolute(original)
    stem = file.name[: -len(ORIGINAL_SUFFIX)] if is_original(file) else file.stem
    return [_absolute(file.parent / pattern.format(stem=stem, name=file.name)) for pattern in patterns]


def translation_of(original: str | Path, patterns: Sequence[str]) -> Path | None:
    return next((c for c in translation_candidates(original, patterns) if c.is_file()), None)


def _pattern_regex(tail: str) -> re.Pattern[str]:
    parts = re.split(r"(\{stem\}|\{name\})", tail)
    regex = "".join(
        "(?P<stem>[^/]+)"
        if part == "{stem}"
        else rf"(?P<name>[^/]+{re.escape(ORIGINAL_SUFFIX)})"
        if part == "{name}"
        else re.escape(part)
        for part in parts
    )
    return re.compile(regex, re.IGNORECASE)


def _originals_for(path: Path, pattern: str) -> Iterator[Path]:
    """Originals whose ``pattern`` names ``path``."""
    up = 0
    tail = pattern.replace("\\", "/")
    while tail.startswith("../"):
        up, tail = up + 1, tail[3:]
    tail = tail.removeprefix("./")
    depth = tail.count("/") + 1
    if len(path.parts) <= depth:
        return
    match = _pattern_regex(tail).fullmatch("/".join(path.parts[-depth:]))
    if match is None:
        return
    groups = match.groupdict()
    name = groups.get("name") or f"{groups['stem']}{ORIGINAL_SUFFIX}"
    base = path.parents[depth - 1]
    folders = [base]
    for _ in range(up):  # "../hip/{stem}.hip": the original sits in some sibling folder of hip/
        folders = [
            child for folder in folders if folder.is_dir() for child in sorted(folder.iterdir()) if child.is_dir()
        ]
    for folder in folders:
        candidate = folder / name
        if candidate != path:
            yield candidate


def original_of(translation: str | Path, patterns: Sequence[str]) -> Path | None:
    """The CUDA original that pairs with ``translation`` (which must then be its first existing
    candidate, so both directions of the lookup agree)."""
    file = _absolute(translation)
    for pattern in patterns:
        for candidate in _originals_for(file, pattern):
            if candidate.is_file() and translation_of(candidate, patterns) == file:
                return candidate
    return None


def pair_for(path: str | Path, patterns: Sequence[str], *, rule_translation: bool = True) -> Pair | None:
    """The pair ``path`` belongs to, as original or as translation; None when it belongs to none
    (or, with ``rule_translation`` False, when an original has no translation file)."""
    file = _absolute(path)
    if is_original(file):
        translation = translation_of(file, patterns)
        if translation is None and not rule_translation:
            return None
        return Pair(str(file), str(translation) if translation else None)
    original = original_of(file, patterns)
    return Pair(str(original), str(file)) if original is not None else None


def pairs_under(roots: Iterable[str | Path], patterns: Sequence[str], ignore: Sequence[str]) -> list[Pair]:
    """Every original under ``roots`` (files or folders, ``ignore`` folder names skipped) with its pair."""
    skipped = set(ignore)
    found: dict[str, Pair] = {}
    for root in roots:
        top = _absolute(root)
        if top.is_file():
            pair = pair_for(top, patterns)
            if pair is not None:
                found.setdefault(pair.original, pair)
            continue
        for folder, dirs, files in os.walk(top):
            dirs[:] = sorted(d for d in dirs if d not in skipped)
            for name in sorted(files):
                if is_original(name):
                    pair = pair_for(Path(folder, name), patterns)
                    assert pair is not None  # an original always pairs
                    found.setdefault(pair.original, pair)
    return list(found.values())
