"""A verification's outcome as `cass-verify` diagnostics, on the lines of the user's files.

Compile errors go on the line of the file the compiler rejected (for a translation file, with
`relatedInformation` at the original's line it came from); a stage that failed without a line (a run
mismatch, a crash) goes on the `main` of its side of the program.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types
from pygls import uris

from cass_lsp.compile.program import main_line
from cass_lsp.services.settings import ResolvedSettings
from cass_lsp.services.verification import OriginalLines

if TYPE_CHECKING:
    from cass_lsp.verify.engine import Report
    from cass_lsp.verify.stages import Inputs, StageResult

SOURCE = "cass-verify"


def by_uri(report: Report, inputs: Inputs, resolved: ResolvedSettings) -> dict[str, list[types.Diagnostic]]:
    """The diagnostics of each file the report says something about."""
    program = inputs.program
    found: dict[str, list[types.Diagnostic]] = {}
    original_lines = OriginalLines(inputs, resolved)
    for stage in report.stages:
        if stage.outcome != "failed":
            continue
        errors = [d for d in stage.diagnostics if d.severity == "error" and d.file and d.line]
        if stage.name == "run" or not errors:
            where = _main_file(inputs, stage)
            line = main_line(inputs.texts.get(where, ""))
            found.setdefault(uris.from_fs_path(where) or where, []).append(
                _diagnostic(line, 0, 10_000, f"{stage.label}: {stage.message}", stage)
            )
            continue
        for error in errors:
            assert error.file is not None and error.line is not None
            related = None
            unit = program.unit(error.file)
            if stage.name == "translation" and unit is not None and unit.translation == error.file:
                related = _related(unit.original, original_lines.line(unit.original, error.file, stage.target, error.line))
            column = max(0, (error.column or 1) - 1)
            message = f"{_tool(stage)} ({stage.target}): {error.message}"
            found.setdefault(uris.from_fs_path(error.file) or error.file, []).append(
                _diagnostic(error.line - 1, column, column + 1, message, stage, related)
            )
    return found


def _main_file(inputs: Inputs, stage: StageResult) -> str:
    """The file holding `main` on the stage's side (the pair's file when no unit defines it)."""
    program = inputs.program
    unit = program.unit(program.main) if program.main is not None else None
    if unit is None:
        pair = inputs.pair
        return pair.original if stage.name == "original" else pair.translation or pair.original
    return unit.original if stage.name == "original" else unit.translation or unit.original


def _tool(stage: StageResult) -> str:
    return stage.tool or ("nvcc" if stage.name == "original" else "clang")


def _related(original: str, line: int | None) -> list[types.DiagnosticRelatedInformation] | None:
    if line is None:
        return None
    location = types.Location(
        uri=uris.from_fs_path(original) or original,
        range=types.Range(start=types.Position(line=line - 1, character=0), end=types.Position(line=line - 1, character=0)),
    )
    return [types.DiagnosticRelatedInformation(location=location, message="the original line")]


def _diagnostic(
    line: int,
    start: int,
    end: int,
    message: str,
    stage: StageResult,
    related: list[types.DiagnosticRelatedInformation] | None = None,
) -> types.Diagnostic:
    return types.Diagnostic(
        range=types.Range(start=types.Position(line=line, character=start), end=types.Position(line=line, character=end)),
        message=message,
        severity=types.DiagnosticSeverity.Error,
        code=f"verify-{stage.name}",
        source=SOURCE,
        related_information=related,
    )
