"""Rule translations of open documents through the job layer (kind ``translate``).

Diagnostics and code actions ask for the same translations: the diagnostics pass translates the
whole file, which leaves the result ready for "Translate file" and "Create .hip" at that version
(same key, one run). A newer version of a document supersedes its running translation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from cass_lsp.core.cancel import CancelToken
from cass_lsp.core.progress import Progress
from cass_lsp.server.app import CassServer
from cass_lsp.services.settings import ResolvedSettings
from cass_lsp.syntax.document import CudaDocument
from cass_lsp.translate import jobs as translate_jobs

if TYPE_CHECKING:
    from cass_lsp.translate import TranslationResult


class Request(NamedTuple):
    doc: CudaDocument  # by identity: a document closed and opened again restarts its versions
    version: int
    resolved: ResolvedSettings
    reverse: bool
    byte_range: tuple[int, int] | None

    @property
    def key(self) -> str:
        return translate_jobs.translation_key(
            self.resolved, self.doc.text, reverse=self.reverse, byte_range=self.byte_range
        )


def request(ls: CassServer, doc: CudaDocument, *, reverse: bool, byte_range: tuple[int, int] | None) -> Request:
    return Request(doc, doc.version, ls.resolved, reverse, byte_range)


def is_current(ls: CassServer, request: Request) -> bool:
    """The document is still at the request's version and the settings are the same."""
    return (
        ls.document(request.doc.uri) is request.doc
        and request.doc.version == request.version
        and ls.resolved == request.resolved
    )


def ready(
    ls: CassServer, doc: CudaDocument, *, reverse: bool, byte_range: tuple[int, int] | None = None
) -> TranslationResult | None:
    """The translation if it is already computed for the current text and settings (no waiting)."""
    key = request(ls, doc, reverse=reverse, byte_range=byte_range).key
    found: TranslationResult | None = ls.jobs.ready(translate_jobs.TRANSLATE, key)
    return found


async def result(
    ls: CassServer, doc: CudaDocument, *, reverse: bool = False, byte_range: tuple[int, int] | None = None
) -> tuple[Request, TranslationResult]:
    """The translation of the document as it is now; check `is_current(ls, request)` after the
    await before using it against the document. Raises `translate_jobs.Untranslatable` and, when a newer
    version superseded it, `Superseded`."""
    req = request(ls, doc, reverse=reverse, byte_range=byte_range)
    snapshot = doc.snapshot()

    def work(token: CancelToken, progress: Progress) -> TranslationResult:
        translate_jobs.check_editor_text(snapshot.text)
        return translate_jobs.translate_text(
            req.resolved, snapshot.text, reverse=reverse, byte_range=byte_range, tree=snapshot.tree, token=token
        )

    slot = (doc.uri, "translate", reverse, byte_range is None)
    return req, await ls.jobs.run(translate_jobs.TRANSLATE, slot, req.key, work)
