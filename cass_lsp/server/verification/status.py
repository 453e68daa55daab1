"""What the editor is told of a verification: the `cass/verificationStatus` notification."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Literal

import msgspec
from pygls import uris

from cass_lsp.server.app import CassServer

if TYPE_CHECKING:
    from cass_lsp.verify.stages import StageResult

STATUS_NOTIFICATION = "cass/verificationStatus"
State = Literal["queued", "running", "passed", "failed", "unverified", "off"]


class StageStatus(msgspec.Struct, frozen=True):
    name: str
    target: str | None
    outcome: str
    message: str
    cached: bool = False


class VerificationStatus(msgspec.Struct, frozen=True):
    uri: str
    version: int | None
    state: State
    summary: str
    stages: list[StageStatus] = msgspec.field(default_factory=list)


def notify(server: CassServer, files: Iterable[str], state: State, summary: str, stages: list[StageResult] | None = None) -> None:
    """Tell the state to every file it concerns (each may show it in a status bar)."""
    shown = [StageStatus(s.name, s.target, s.outcome, s.message, s.cached) for s in stages or []]
    for path in dict.fromkeys(files):
        uri = uris.from_fs_path(path) or path
        doc = server.document(uri)
        status = VerificationStatus(uri, doc.version if doc is not None else None, state, summary, shown)
        server.protocol.notify(STATUS_NOTIFICATION, msgspec.to_builtins(status))
