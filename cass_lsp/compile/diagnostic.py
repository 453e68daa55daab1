"""What a compiler says about a line: the one type the compilers' output parsers, the include
checks made before any compile, verification's stages and the listings all report in."""

from __future__ import annotations

from typing import Literal

import msgspec

Severity = Literal["error", "warning", "note", "remark"]


class CompilerDiagnostic(msgspec.Struct, frozen=True, rename="camel"):
    severity: Severity
    message: str
    file: str | None = None
    line: int | None = None
    column: int | None = None
