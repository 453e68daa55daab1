"""The LSP layer: short handlers that decode params, call an engine, and encode the answer."""

from __future__ import annotations

from cass_lsp.server import actions, assembly, diagnostics, documents, hover, settings, symbols
from cass_lsp.server.app import CassServer
from cass_lsp.server.translations import Translations


def create_server() -> CassServer:
    server = CassServer()
    for feature_module in (settings, documents, symbols, hover):
        feature_module.register(server)
    translations = Translations(server)
    actions.register(server, translations, diagnostics.register(server, translations))
    assembly.register(server)
    return server
