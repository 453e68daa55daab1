"""Portability diagnostics (source `cass-lsp`) from the rule engine's findings.

On open and change, debounced by `cass.diagnostics.debounceMs`, the whole-file translation job runs
(off the event loop, superseded by newer text); a result whose document version or settings moved
on meanwhile is dropped, and the publication carries the version it was computed for. Text the
engine cannot take replaces the previous version's diagnostics with one that says why. Findings that
come with a fix are kept per published version, so the quick-fix code actions can find them again.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, NamedTuple

from lsprotocol import types

from cass_lsp.core.cancel import Cancelled
from cass_lsp.server import translations
from cass_lsp.server.app import CassServer
from cass_lsp.server.convert import byte_range
from cass_lsp.services.settings import ResolvedSettings
from cass_lsp.syntax.document import CudaDocument
from cass_lsp.translate.jobs import Untranslatable

if TYPE_CHECKING:
    from cass_lsp.translate import Finding

log = logging.getLogger(__name__)

SOURCE = "cass-lsp"

_SEVERITY = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "info": types.DiagnosticSeverity.Information,
    "hint": types.DiagnosticSeverity.Hint,
}
_DEPRECATED_CODES = frozenset({"deprecated-api", "texture-reference"})
UNTRANSLATABLE = "untranslatable"


class Published(NamedTuple):
    version: int
    diagnostics: list[types.Diagnostic]
    findings: list[Finding]  # findings[i] is the finding of diagnostics[i]; the untranslatable note has none


def _supports_deprecated_tag(ls: CassServer) -> bool:
    text_document = ls.client_capabilities.text_document
    caps = text_document.publish_diagnostics if text_document else None
    tags = caps.tag_support if caps else None
    return bool(tags and types.DiagnosticTag.Deprecated in tags.value_set)


def to_diagnostic(doc: CudaDocument, finding: Finding, deprecated_tag: bool) -> types.Diagnostic:
    tags = [types.DiagnosticTag.Deprecated] if deprecated_tag and finding.code in _DEPRECATED_CODES else None
    return types.Diagnostic(
        range=byte_range(doc, finding.start_byte, finding.end_byte),
        message=finding.message,
        severity=_SEVERITY.get(finding.severity, types.DiagnosticSeverity.Warning),
        code=finding.code,
        source=SOURCE,
        tags=tags,
    )


class Diagnostics:
    def __init__(self, server: CassServer) -> None:
        self._server = server
        self._published: dict[str, Published] = {}
        self._running: set[str] = set()
        self._again: set[str] = set()
        self._tasks: set[asyncio.Task[None]] = set()

    # ------------------------------------------------------------------ hooks
    def document_changed(self, doc: CudaDocument) -> None:
        delay = self._server.resolved.diagnostics_debounce_ms / 1000
        self._server.debounce(self._key(doc.uri), delay, lambda: self._start(doc.uri))

    def document_closed(self, uri: str) -> None:
        self._server.cancel_debounce(self._key(uri))
        self._again.discard(uri)
        if self._published.pop(uri, None) is not None:
            self._publish(uri, [], None)

    def settings_changed(self, resolved: ResolvedSettings) -> None:
        # the target profile changes findings (wave64 warp-size checks, ROCm-dependent APIs)
        for doc in list(self._server.documents.values()):
            self.document_changed(doc)

    # ------------------------------------------------------------------ quick fixes
    def findings_for(self, uri: str, version: int, diagnostic: types.Diagnostic) -> list[Finding]:
        """The findings behind a diagnostic this server published for that document version."""
        published = self._published.get(uri)
        if published is None or published.version != version or diagnostic.source != SOURCE:
            return []
        return [
            finding
            for ours, finding in zip(published.diagnostics, published.findings, strict=False)
            if ours.code == diagnostic.code and ours.range == diagnostic.range
        ]

    # ------------------------------------------------------------------ the pass
    @staticmethod
    def _key(uri: str) -> str:
        return f"diagnostics:{uri}"

    def _start(self, uri: str) -> None:
        # one pass per document at a time; a change during a pass queues exactly one more
        if uri in self._running:
            self._again.add(uri)
            return
        self._running.add(uri)
        task = asyncio.ensure_future(self._run(uri))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _run(self, uri: str) -> None:
        try:
            while True:
                self._again.discard(uri)
                await self._pass(uri)
                if uri not in self._again:
                    return
        except Exception:
            log.exception("diagnostics for %s failed", uri)
        finally:
            self._running.discard(uri)

    async def _pass(self, uri: str) -> None:
        doc = self._server.document(uri)
        if doc is None:
            return
        if not self._server.resolved.diagnostics_enabled or doc.too_large:
            if self._published.pop(uri, None) is not None:
                self._publish(uri, [], doc.version)
            return
        request = translations.request(self._server, doc, reverse=False, byte_range=None)
        try:
            request, result = await translations.result(self._server, doc)
        except Untranslatable as error:
            if translations.is_current(self._server, request):
                self._untranslatable(doc, error)
            return
        except Cancelled:
            return  # newer text superseded it; its own pass publishes
        if not translations.is_current(self._server, request):
            log.debug("%s: dropping diagnostics for version %d", uri, request.version)
            return
        doc = self._server.document(uri)
        assert doc is not None  # is_current checked it, with no await since
        tag = _supports_deprecated_tag(self._server)
        diagnostics = [to_diagnostic(doc, finding, tag) for finding in result.findings]
        self._published[uri] = Published(doc.version, diagnostics, result.findings)
        self._publish(uri, diagnostics, doc.version)

    def _untranslatable(self, doc: CudaDocument, error: Untranslatable) -> None:
        """The previous version's findings no longer describe the text: replace them with the reason."""
        line = doc.line_text(error.line)
        diagnostic = types.Diagnostic(
            range=types.Range(
                start=types.Position(line=error.line, character=0),
                end=types.Position(line=error.line, character=len(line.encode("utf-16-le", "surrogatepass")) // 2),
            ),
            message=f"cass-lsp cannot translate this text: {error}",
            severity=types.DiagnosticSeverity.Warning,
            code=UNTRANSLATABLE,
            source=SOURCE,
        )
        self._published[doc.uri] = Published(doc.version, [diagnostic], [])
        self._publish(doc.uri, [diagnostic], doc.version)

    def _publish(self, uri: str, diagnostics: list[types.Diagnostic], version: int | None) -> None:
        self._server.publish_diagnostics(uri, SOURCE, diagnostics, version)


def register(server: CassServer) -> Diagnostics:
    diagnostics = Diagnostics(server)
    server.on_document_changed.append(diagnostics.document_changed)
    server.on_document_closed.append(diagnostics.document_closed)
    server.on_settings_changed.append(diagnostics.settings_changed)
    return diagnostics
