"""The language server object: open documents, current settings, and change hooks."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from cass_lsp import __version__
from cass_lsp.config import Settings, load_settings, merge
from cass_lsp.document import CudaDocument

log = logging.getLogger(__name__)

DocumentHook = Callable[[CudaDocument], None]


class CassServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__(name="cass-lsp", version=__version__)
        self.documents: dict[str, CudaDocument] = {}
        self.settings = Settings()
        self._settings_sources: dict[str, dict[str, Any]] = {}
        self.on_document_changed: list[DocumentHook] = []
        self.on_document_closed: list[Callable[[str], None]] = []
        self.on_settings_changed: list[Callable[[Settings], None]] = []

    def document(self, uri: str) -> CudaDocument | None:
        return self.documents.get(uri)

    def notify_changed(self, doc: CudaDocument) -> None:
        for hook in self.on_document_changed:
            hook(doc)

    def update_settings(self, source: str, raw: Any) -> None:
        """Take one source of settings: `initializationOptions`, or `workspace` (pushed or pulled, the
        latest wins); workspace settings override initializationOptions key by key."""
        if raw is None:
            return
        if not isinstance(raw, dict):
            self.show_message(f"cass-lsp: ignoring {source} settings: expected an object", types.MessageType.Warning)
            return
        self._settings_sources[source] = raw
        combined: dict[str, Any] = {}
        for name in ("initializationOptions", "workspace"):
            combined = merge(combined, self._settings_sources.get(name, {}))
        settings, problems = load_settings(combined)
        for problem in problems:
            self.show_message(f"cass-lsp: invalid setting {problem}", types.MessageType.Warning)
        if settings != self.settings:
            self.settings = settings
            logging.getLogger("cass_lsp").setLevel(settings.log_level.upper())
            for hook in self.on_settings_changed:
                hook(settings)

    def show_message(self, message: str, kind: types.MessageType = types.MessageType.Info) -> None:
        log.info("showMessage: %s", message)
        self.window_show_message(types.ShowMessageParams(type=kind, message=message))
