"""``compile_commands.json`` the way clangd finds and reads it, reduced to what a listing needs.

The nearest database up the directory tree (``<dir>/compile_commands.json`` or
``<dir>/build/compile_commands.json``), or a configured path; for a file, the ``-I``, ``-isystem``,
``-D``, ``-U``, ``-include`` and ``-std`` options of its entry (or, for a file with no entry such as a
header, of an entry in the same directory, else the first entry), with relative paths made absolute.
They pass the filter verification's flags pass (:func:`cass_lsp.compile.nvcc_flags.split`: a value nvcc's
shell would expand is left out), response files in the database's folder included.
"""

from __future__ import annotations

import functools
import json
import os
import shlex
from pathlib import Path

from cass_lsp.compile import nvcc_flags

NAME = "compile_commands.json"


def find(path: str | Path, configured: str | Path | None = None) -> Path | None:
    """The database for ``path``: ``configured`` (a file or a directory holding one), else the nearest."""
    if configured:
        candidate = Path(configured).expanduser()
        if candidate.is_dir():
            candidate = candidate / NAME
        return candidate if candidate.is_file() else None
    directory = Path(path).resolve().parent
    for parent in (directory, *directory.parents):
        for candidate in (parent / NAME, parent / "build" / NAME):
            if candidate.is_file():
                return candidate
    return None


def flags_for(path: str | Path, database: Path) -> list[str]:
    """Preprocessor and language-standard options of ``path``'s entry, paths absolute."""
    entries = _load(str(database), database.stat().st_mtime_ns)
    if not entries:
        return []
    target = os.path.normpath(os.path.abspath(path))
    entry = entries.get(target)
    if entry is None:
        same_dir = [e for f, e in entries.items() if os.path.dirname(f) == os.path.dirname(target)]
        entry = same_dir[0] if same_dir else next(iter(entries.values()))
    directory, arguments = entry
    # the same filter as verification's (arguments[0] is the compiler); the build wrote its response
    # files beside its database
    project = os.path.dirname(os.path.realpath(database))
    return list(nvcc_flags.split(arguments[1:], directory, project).preprocessor)


def files(database: Path) -> list[str]:
    """The files the database has entries for, absolute."""
    return list(_load(str(database), database.stat().st_mtime_ns))


def entry(path: str | Path, database: Path) -> Entry | None:
    """(directory, arguments) of ``path``'s own entry, or None when the database has none."""
    entries = _load(str(database), database.stat().st_mtime_ns)
    return entries.get(os.path.normpath(os.path.abspath(path)))


Entry = tuple[str, list[str]]


@functools.lru_cache(maxsize=8)
def _load(database: str, _mtime: int) -> dict[str, Entry]:
    try:
        raw = json.loads(Path(database).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    entries: dict[str, Entry] = {}
    for item in raw if isinstance(raw, list) else []:
        if not isinstance(item, dict) or "file" not in item:
            continue
        # "directory" should be absolute; a relative one (hand-written databases) starts at the database
        directory = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(database)), str(item.get("directory") or "")))
        if isinstance(item.get("arguments"), list):
            arguments = [str(a) for a in item["arguments"]]
        else:
            try:
                arguments = shlex.split(str(item.get("command", "")))
            except ValueError:
                continue
        file = os.path.normpath(os.path.join(directory, str(item["file"])))
        entries.setdefault(file, (directory, arguments))
    return entries
