"""Rule-engine results per document version, computed off the event loop and shared.

Diagnostics and code actions ask for the same translations: the diagnostics pass translates the
whole file, which leaves the result warm for "Translate file" and "Create .hip" at that version.
Results are keyed by everything they depend on (document version, direction, range, profile and
options), so a cached answer is never one for other text or other settings.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from typing import TYPE_CHECKING, NamedTuple

from cass_lsp.document import CudaDocument, Snapshot
from cass_lsp.server.app import CassServer

if TYPE_CHECKING:
    from cass_lsp.translate import TargetProfile, TranslateOptions, TranslationResult

log = logging.getLogger(__name__)

CACHE_SIZE = 8


class Untranslatable(Exception):
    """The engine cannot take this text; the message is for the user."""


class Request(NamedTuple):
    doc: CudaDocument  # by identity: a document closed and opened again restarts its versions
    uri: str
    version: int
    reverse: bool
    byte_range: tuple[int, int] | None
    profile: TargetProfile
    options: TranslateOptions


def _translate(snapshot: Snapshot, request: Request) -> TranslationResult:
    from cass_lsp.translate import translate

    try:
        # The engine encodes with surrogateescape and the document with surrogatepass; they agree
        # (and so do their byte offsets) exactly when the text has no lone surrogates.
        snapshot.text.encode("utf-8")
    except UnicodeEncodeError as error:
        line = snapshot.text.count("\n", 0, error.start) + 1
        raise Untranslatable(f"line {line} holds an unpaired UTF-16 surrogate; fix it to translate") from error
    return translate(
        snapshot.text,
        request.profile,
        request.options,
        reverse=request.reverse,
        byte_range=request.byte_range,
        tree=snapshot.tree,
    )


class Translations:
    def __init__(self, server: CassServer) -> None:
        self._server = server
        self._results: OrderedDict[Request, asyncio.Future[TranslationResult]] = OrderedDict()
        server.on_document_closed.append(self.forget)

    def request(self, doc: CudaDocument, *, reverse: bool, byte_range: tuple[int, int] | None) -> Request:
        settings = self._server.settings
        return Request(doc, doc.uri, doc.version, reverse, byte_range, settings.target, settings.translate)

    def is_current(self, request: Request) -> bool:
        """The document is still at the request's version and the settings are the same."""
        settings = self._server.settings
        return (
            self._server.document(request.uri) is request.doc
            and request.doc.version == request.version
            and settings.target == request.profile
            and settings.translate == request.options
        )

    async def result(
        self, doc: CudaDocument, *, reverse: bool = False, byte_range: tuple[int, int] | None = None
    ) -> tuple[Request, TranslationResult]:
        """The translation of the document as it is now; compare `is_current(request)` after the
        await before using it against the document."""
        request = self.request(doc, reverse=reverse, byte_range=byte_range)
        future = self._results.get(request)
        if future is None:
            future = asyncio.ensure_future(self._server.off_loop(_translate, doc.snapshot(), request))
            self._results[request] = future
            while len(self._results) > CACHE_SIZE:
                self._results.popitem(last=False)
        else:
            self._results.move_to_end(request)
        try:
            # shielded: one cancelled request must not cancel the result others wait for
            return request, await asyncio.shield(future)
        except Untranslatable:
            raise
        except Exception:
            if self._results.get(request) is future:
                del self._results[request]
            raise

    def forget(self, uri: str) -> None:
        for request in [r for r in self._results if r.uri == uri]:
            del self._results[request]
