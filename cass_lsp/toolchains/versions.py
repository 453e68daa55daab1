"""Version strings of outside tools, asked once per binary (and again if the binary changes)."""

from __future__ import annotations

import functools
import re
from pathlib import Path

from cass_lsp.core import proc

_TIMEOUT_S = 20.0


def tool_version(path: Path, args: tuple[str, ...], pattern: str) -> str | None:
    """First match of ``pattern`` (group 1) in the output of ``path *args``."""
    try:
        st = path.stat()
    except OSError:
        return None
    return _cached(str(path), st.st_mtime_ns, st.st_size, args, pattern)


@functools.cache
def _cached(path: str, _mtime: int, _size: int, args: tuple[str, ...], pattern: str) -> str | None:
    try:
        result = proc.run([path, *args], timeout=_TIMEOUT_S)
    except OSError:
        return None
    match = re.search(pattern, result.text())
    return match.group(1) if match else None
