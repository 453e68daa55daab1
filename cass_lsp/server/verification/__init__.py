"""Background verification in the server, one job a module: :mod:`.core` (triggers and the
verification of a pair's program), :mod:`.queue` (debounced, bounded waiting), :mod:`.watching`
(the file watcher's lifecycle), :mod:`.diagnostics` (outcomes on the user's lines) and
:mod:`.status` (the `cass/verificationStatus` notification)."""

from __future__ import annotations

from typing import Any

from cass_lsp.server.app import CassServer
from cass_lsp.server.convert import uri_argument
from cass_lsp.server.verification.core import COMMAND, Verification
from cass_lsp.server.verification.diagnostics import SOURCE
from cass_lsp.server.verification.status import STATUS_NOTIFICATION

__all__ = ["COMMAND", "SOURCE", "STATUS_NOTIFICATION", "Verification", "register"]


def register(server: CassServer) -> Verification:
    verification = Verification(server)
    server.on_document_saved.append(verification.document_saved)
    server.on_settings_changed.append(verification.settings_changed)
    server.on_shutdown.append(verification.watching.stop)
    server.on_initialized.append(verification.watching.start)

    @server.command(COMMAND)
    async def verify(ls: CassServer, uri: str) -> dict[str, Any]:
        return await verification.verify_now(uri_argument(uri, COMMAND))

    return verification
