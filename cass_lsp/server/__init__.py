"""The LSP layer: short handlers that decode params, call the job layer, and encode the answer."""

from __future__ import annotations

from pygls.protocol import default_converter

from cass_lsp.server import (
    actions,
    assembly,
    diagnostics,
    documents,
    hover,
    includes,
    lifecycle,
    model,
    progress,
    settings,
    symbols,
    verification,
)
from cass_lsp.server.app import CassServer


def create_server() -> CassServer:
    server = CassServer(converter_factory=lambda: symbols.with_json_forms(default_converter()))
    for feature_module in (settings, lifecycle, progress, documents, symbols):
        feature_module.register(server)
    action_providers = actions.register(server, diagnostics.register(server))
    listings = assembly.register(server, hover.register(server))
    model.register(server, action_providers, listings)
    verification.register(server)
    includes.register(server)
    return server
