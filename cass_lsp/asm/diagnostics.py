"""Compiler messages (clang, nvcc's EDG front end, ptxas) as structured diagnostics."""

from __future__ import annotations

import re
from collections.abc import Callable

from cass_lsp.compile.diagnostic import CompilerDiagnostic, Severity

# clang / gcc: path:line:col: severity: message
_CLANG = re.compile(
    r"^(?P<file>[^:\n]+):(?P<line>\d+):(?:(?P<col>\d+):)? (?P<sev>fatal error|error|warning|note|remark): (?P<msg>.*)$"
)
# nvcc (EDG): path(line): severity[ #code-D]: message
_EDG = re.compile(
    r"^(?P<file>.+?)\((?P<line>\d+)\): (?P<sev>catastrophic error|error|warning|remark)(?: #[\w-]+)?: (?P<msg>.*)$"
)
# ptxas / nvlink: messages about the PTX or the link, not a source line
_TOOL = re.compile(r"^(?P<tool>ptxas|nvlink|nvdisasm|nvcc)\b[^:]*?(?P<sev>fatal|error|warning)\s*: (?P<msg>.*)$")

_SEVERITY: dict[str, Severity] = {
    "fatal error": "error",
    "catastrophic error": "error",
    "fatal": "error",
    "error": "error",
    "warning": "warning",
    "note": "note",
    "remark": "remark",
}


def parse(output: str, map_location: Callable[[str, int], tuple[str, int]]) -> list[CompilerDiagnostic]:
    """Diagnostics in the order printed, duplicates (nvcc's host and device passes) dropped.

    ``map_location`` turns a (path, line) the compiler printed into the user's (path, line).
    """
    found: list[CompilerDiagnostic] = []
    seen: set[CompilerDiagnostic] = set()
    for raw in output.splitlines():
        line = raw.rstrip()
        diag = _one(line, map_location)
        if diag is not None and diag not in seen:
            seen.add(diag)
            found.append(diag)
    return found


def _one(line: str, map_location: Callable[[str, int], tuple[str, int]]) -> CompilerDiagnostic | None:
    m = _CLANG.match(line) or _EDG.match(line)
    if m:
        file, lineno = map_location(m.group("file"), int(m.group("line")))
        col = m.groupdict().get("col")
        return CompilerDiagnostic(
            severity=_SEVERITY[m.group("sev")],
            message=m.group("msg").strip(),
            file=file,
            line=lineno,
            column=int(col) if col else None,
        )
    m = _TOOL.match(line)
    if m:
        return CompilerDiagnostic(
            severity=_SEVERITY[m.group("sev")], message=f"{m.group('tool')}: {m.group('msg').strip()}"
        )
    return None


def first_error(diagnostics: list[CompilerDiagnostic]) -> CompilerDiagnostic | None:
    return next((d for d in diagnostics if d.severity == "error"), None)
