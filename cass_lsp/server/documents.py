"""Text synchronisation: one CudaDocument per open CUDA/HIP file, updated incrementally."""

from __future__ import annotations

import logging

from lsprotocol import types

from cass_lsp.server import build_files
from cass_lsp.server.app import CassServer
from cass_lsp.syntax.document import CudaDocument, TextChange, is_cuda_document

log = logging.getLogger(__name__)


def _change(change: types.TextDocumentContentChangeEvent) -> TextChange:
    if isinstance(change, types.TextDocumentContentChangePartial):
        r = change.range
        return TextChange(change.text, ((r.start.line, r.start.character), (r.end.line, r.end.character)))
    return TextChange(change.text)


def register(server: CassServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: CassServer, params: types.DidOpenTextDocumentParams) -> None:
        item = params.text_document
        if build_files.opened(ls, item):  # CMake and Make files: plain text, ported on their own
            return
        if not is_cuda_document(item.uri, item.language_id):
            log.info("not a CUDA/HIP document, ignored: %s (%s)", item.uri, item.language_id)
            return
        doc = CudaDocument(item.uri, item.text, item.version, item.language_id, ls.settings.max_parse_bytes)
        ls.documents[item.uri] = doc
        if doc.too_large:
            ls.show_message(
                f"cass-lsp: {item.uri} is {len(doc.source):,} bytes, over cass.maxParseBytes "
                f"({doc.max_parse_bytes:,}); CUDA features are off for it",
                types.MessageType.Warning,
            )
        ls.notify_changed(doc)
        for hook in ls.on_document_opened:
            hook(doc)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: CassServer, params: types.DidChangeTextDocumentParams) -> None:
        doc = ls.document(params.text_document.uri)
        if doc is None and build_files.changed(ls, params):
            return
        if doc is None:
            log.info("didChange for a document that is not open here: %s", params.text_document.uri)
            return
        doc.apply_changes([_change(c) for c in params.content_changes], params.text_document.version)
        ls.notify_changed(doc)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE, types.SaveOptions(include_text=False))
    def did_save(ls: CassServer, params: types.DidSaveTextDocumentParams) -> None:
        doc = ls.document(params.text_document.uri)
        if doc is not None:
            for hook in ls.on_document_saved:
                hook(doc)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: CassServer, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        if build_files.closed(ls, uri):
            return
        if ls.documents.pop(uri, None) is not None:
            for hook in ls.on_document_closed:
                hook(uri)
