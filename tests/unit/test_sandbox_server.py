"""The server's verification never stays "verifying": whatever raises inside one ends the pair's
status with what went wrong, and leaves no task exception unread.

Every stage promises not to raise for the user's code, so no real input should make one raise (the
data folder named like the executable that once did is fixed): the verification here runs in the
server's process, with the real queue, scheduler and status notification, and one injected stage
that raises the way that copy did."""

from __future__ import annotations

import asyncio
import gc
import json
import logging
import uuid
from pathlib import Path
from typing import Any

import pytest

from cass_lsp.core.cancel import CancelToken
from cass_lsp.server.app import CassServer
from cass_lsp.server.verification import STATUS_NOTIFICATION, Verification
from cass_lsp.verify import engine
from cass_lsp.verify.stages import Inputs, StageResult
from tests.lsp.test_verification_lsp import GOOD, TERMINAL, pair


class _Sent:
    """The server's transport: every message it sends, decoded."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []

    def write(self, data: bytes) -> None:
        self.messages.append(json.loads(data))

    def close(self) -> None:
        pass

    def statuses(self) -> list[dict[str, Any]]:
        return [m["params"] for m in self.messages if m.get("method") == STATUS_NOTIFICATION]


def _raising_plan(inputs: Inputs, resolved: Any, *, run: bool, nice: int = 0) -> list[engine.Stage]:
    def work(token: CancelToken | None) -> StageResult:
        raise FileExistsError(17, "File exists", "/tmp/cass-run-x/program")

    return [engine.Stage("translation", "gfx1100", f"raises-{uuid.uuid4()}", work, title="verify: a stage that raises")]


async def test_an_exception_in_a_verification_ends_its_status(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    _, hip, _ = pair(tmp_path, GOOD)
    monkeypatch.setattr(engine, "plan", _raising_plan)
    server = CassServer()
    sent = _Sent()
    server.protocol.set_writer(sent, include_headers=False)
    verification = Verification(server)
    try:
        with caplog.at_level(logging.ERROR):
            verification.paths_changed({str(hip)}, from_editor=True)
            async with asyncio.timeout(60):
                while not any(s["uri"] == hip.as_uri() and s["state"] in TERMINAL for s in sent.statuses()):
                    await asyncio.sleep(0.05)
            gc.collect()  # an unread task exception is logged when the task is collected
            await asyncio.sleep(0)
    finally:
        server.jobs.shutdown()
    status = next(s for s in sent.statuses() if s["uri"] == hip.as_uri() and s["state"] in TERMINAL)
    assert status["state"] == "unverified", status
    assert "could not verify: FileExistsError" in status["summary"], status
    assert not [r for r in caplog.records if "never retrieved" in r.getMessage()], caplog.text
