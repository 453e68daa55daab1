"""The project headers a file pulls in with ``#include "..."``, found the way the compiler does.

Used for cache keys (a listing depends on its local headers' text) and to give the AMD side a
translated copy of each local header. ``<...>`` includes are system or toolchain headers: the
toolchain versions in the cache key already cover them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

_QUOTE_INCLUDE = re.compile(r'^\s*#\s*include\s*"(?P<name>[^"]+)"', re.MULTILINE)
MAX_HEADERS = 256


def quoted(text: str) -> list[str]:
    return [m.group("name") for m in _QUOTE_INCLUDE.finditer(text)]


def resolve(name: str, including_dir: Path, include_dirs: Sequence[Path]) -> Path | None:
    """The directory of the including file first, then the ``-I`` directories."""
    for base in (including_dir, *include_dirs):
        candidate = base / name
        if candidate.is_file():
            return candidate.resolve()
    return None


def local_headers(text: str, path: Path, include_dirs: Sequence[Path]) -> list[Path]:
    """Every quote-included header reachable from ``text`` (the contents of ``path``), in discovery order."""
    found: dict[Path, None] = {}
    pending: list[tuple[str, Path]] = [(text, path.parent)]
    while pending and len(found) < MAX_HEADERS:
        current_text, directory = pending.pop()
        for name in quoted(current_text):
            header = resolve(name, directory, include_dirs)
            if header is None or header in found or header == path.resolve():
                continue
            found[header] = None
            try:
                pending.append((header.read_text(encoding="utf-8", errors="surrogateescape"), header.parent))
            except OSError:
                continue
    return list(found)
