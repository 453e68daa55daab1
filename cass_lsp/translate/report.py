"""The JSON summary of ``cass-lsp translate --json``."""

from __future__ import annotations

import msgspec


class FindingReport(msgspec.Struct, rename="camel", frozen=True):
    code: str
    severity: str
    message: str
    line: int  # 1-based
    column: int  # 1-based, in bytes


class FileReport(msgspec.Struct, rename="camel", frozen=True):
    path: str
    output: str | None  # None: the translation is in ``text``
    lines: int
    stats: dict[str, int]
    findings: list[FindingReport]
    text: str | None = None
    error: str | None = None


class Summary(msgspec.Struct, rename="camel", frozen=True):
    direction: str
    arch: str
    rocm: str
    files: int
    lines: int
    stats: dict[str, int]
    unsupported: int  # findings that stop the output compiling for the target
    reports: list[FileReport]
