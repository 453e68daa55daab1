"""The `shutdown` request: running jobs are cancelled and given a moment to end first.

Requests still waiting on them (a model generation, a `cass/assembly` that waits for a compile)
then finish with their "cancelled" answers before the server stops, instead of being cancelled
underneath pygls (whose own shutdown cannot cancel a running command's future safely).
"""

from __future__ import annotations

from lsprotocol import types

from cass_lsp.server.app import CassServer

SETTLE_SECONDS = 3.0


def register(server: CassServer) -> None:
    @server.feature(types.SHUTDOWN)
    async def shutdown(ls: CassServer, params: None) -> None:
        ls.jobs.shutdown()
        await ls.jobs.settle(SETTLE_SECONDS)
