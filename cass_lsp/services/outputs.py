"""What a translation of files writes and reports: the units (source, target, in place), findings
located by line and column, each unit's outcome, and the atomic write and first-original backup that
``cass-lsp translate`` uses for sources and build files alike."""

from __future__ import annotations

import os
from typing import NamedTuple

BACKUP_SUFFIX = ".prehip"


class Unit(NamedTuple):
    source: str
    target: str | None  # None: standard output
    in_place: bool


class Located(NamedTuple):
    code: str
    severity: str
    message: str
    line: int
    column: int


class Outcome(NamedTuple):
    unit: Unit
    lines: int
    stats: dict[str, int]
    findings: list[Located]
    text: str | None  # the translation, when it goes to standard output
    error: str | None


def write_atomic(path: str, data: bytes, mode: int | None) -> None:
    folder = os.path.dirname(path) or "."
    os.makedirs(folder, exist_ok=True)
    tmp = os.path.join(folder, f".{os.path.basename(path)}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666 if mode is None else mode)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def backup(path: str) -> None:
    """Keep the first original: a later --in-place run must not overwrite it with a translation."""
    backup = path + BACKUP_SUFFIX
    if os.path.exists(backup):
        return
    try:
        os.link(path, backup)
    except OSError:
        import shutil

        shutil.copy2(path, backup)
