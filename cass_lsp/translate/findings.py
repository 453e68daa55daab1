"""What a translation returns: edits against the original bytes and findings for a human."""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from cass_lsp.translate.codes import Severity

if TYPE_CHECKING:
    from cass_lsp.translate.rules import RawFinding


class Edit(msgspec.Struct, rename="camel", frozen=True):
    """Replace original UTF-8 bytes [start_byte, end_byte) with new_text."""

    start_byte: int
    end_byte: int
    new_text: str


class Finding(msgspec.Struct, rename="camel", frozen=True, omit_defaults=True):
    """Something a human should know; ``fix`` is an optional edit the translation did not apply."""

    code: str  # one of codes.ALL
    severity: Severity
    message: str
    start_byte: int
    end_byte: int
    fix: list[Edit] | None = None
    name: str = ""  # the API or construct concerned
    family: str = ""  # its API family (runtime, driver, device, blas, ...)


class TranslationResult(msgspec.Struct, rename="camel", frozen=True):
    text: str
    edits: list[Edit]  # sorted, non-overlapping, against the original bytes
    findings: list[Finding]
    stats: dict[str, int]  # conversions per API family, plus headers, launch, nvcc-ism

    @property
    def unsupported(self) -> list[Finding]:
        """Findings that leave the output short of compiling for the target."""
        return [f for f in self.findings if f.severity == "error"]


def public_finding(raw: RawFinding) -> Finding:
    fix = [Edit(e.start, e.end, e.text) for e in raw.fix] or None
    return Finding(raw.code, raw.severity, raw.message, raw.start, raw.end, fix, raw.name, raw.family)
