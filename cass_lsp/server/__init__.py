"""The LSP layer: short handlers that decode params, call an engine, and encode the answer."""

from __future__ import annotations

from cass_lsp.server import documents, settings, symbols
from cass_lsp.server.app import CassServer


def create_server() -> CassServer:
    server = CassServer()
    for feature_module in (settings, documents, symbols):
        feature_module.register(server)
    return server
