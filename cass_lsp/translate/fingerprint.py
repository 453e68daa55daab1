"""The identity of the translation engine's code and tables, for cache keys of anything built from
a rule translation (a cached result must not survive an engine upgrade)."""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path


@functools.cache
def fingerprint() -> str:
    root = Path(__file__).resolve().parent
    entries = []
    for file in sorted(root.rglob("*")):
        if file.is_file() and "__pycache__" not in file.parts:
            st = file.stat()
            entries.append(f"{file.relative_to(root)}:{st.st_size}:{st.st_mtime_ns}")
    return hashlib.sha256("\n".join(entries).encode()).hexdigest()
