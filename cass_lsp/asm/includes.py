"""The project headers a file pulls in, found the way the compiler does.

Used for cache keys (a listing depends on its local headers' text) and to give the AMD side a
translated copy of each local header. A project header is one a ``#include "..."`` reaches, or a
``#include <...>`` finds in one of the project's own ``-I`` folders (NVIDIA's samples include
``<helper_cuda.h>`` from their ``Common`` folder): :func:`project_dirs` tells those from system and
toolkit folders, whose headers the toolchain versions in the cache key already cover.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

_QUOTE_INCLUDE = re.compile(r'^\s*#\s*include\s*"(?P<name>[^"]+)"', re.MULTILINE)
_ANGLE_INCLUDE = re.compile(r"^\s*#\s*include\s*<(?P<name>[^>]+)>", re.MULTILINE)
MAX_HEADERS = 256
_SYSTEM_PREFIXES = tuple(Path(p) for p in ("/usr", "/opt", "/lib", "/lib64", "/etc", sys.prefix, sys.base_prefix))
# a folder holding one of these is a toolkit's include folder, wherever it lies
_CUDA_MARKERS = ("cuda_runtime.h", "cuda.h", "crt/host_defines.h")
_TOOLKIT_MARKERS = (*_CUDA_MARKERS, "hip/hip_runtime.h")


def quoted(text: str) -> list[str]:
    return [m.group("name") for m in _QUOTE_INCLUDE.finditer(text)]


def angled(text: str) -> list[str]:
    return [m.group("name") for m in _ANGLE_INCLUDE.finditer(text)]


def is_cuda_toolkit_dir(folder: str | Path) -> bool:
    """``folder`` is a CUDA toolkit's include folder (a CUDA install's, or the nvcc wheels')."""
    return any(os.path.isfile(os.path.join(folder, marker)) for marker in _CUDA_MARKERS)


def project_dirs(include_dirs: Iterable[Path]) -> list[Path]:
    """The ``-I`` folders that hold the project's own headers: not under a system prefix (``/usr``,
    ``/opt``, this Python's) and not a toolkit's include folder."""
    out = []
    for folder in include_dirs:
        if any(folder == prefix or folder.is_relative_to(prefix) for prefix in _SYSTEM_PREFIXES):
            continue
        if any((folder / marker).is_file() for marker in _TOOLKIT_MARKERS):
            continue
        out.append(folder)
    return out


def resolve(name: str, including_dir: Path, include_dirs: Sequence[Path]) -> Path | None:
    """The directory of the including file first, then the ``-I`` directories."""
    for base in (including_dir, *include_dirs):
        candidate = base / name
        if candidate.is_file():
            return candidate.resolve()
    return None


def local_headers(text: str, path: Path, include_dirs: Sequence[Path], angled_dirs: Sequence[Path] = ()) -> list[Path]:
    """Every project header reachable from ``text`` (the contents of ``path``), in discovery order:
    quote-included ones (searched in the including folder, then ``include_dirs``), and
    angle-included ones found in ``angled_dirs`` (the project's own ``-I`` folders)."""
    found: dict[Path, None] = {}
    pending: list[tuple[str, Path]] = [(text, path.parent)]
    while pending and len(found) < MAX_HEADERS:
        current_text, directory = pending.pop()
        names = [(name, directory, include_dirs) for name in quoted(current_text)]
        if angled_dirs:
            names += [(name, angled_dirs[0], angled_dirs[1:]) for name in angled(current_text)]
        for name, first, rest in names:
            header = resolve(name, first, rest)
            if header is None or header in found or header == path.resolve():
                continue
            found[header] = None
            try:
                pending.append((header.read_text(encoding="utf-8", errors="surrogateescape"), header.parent))
            except OSError:
                continue
    return list(found)
