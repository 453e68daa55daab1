"""The server's verification never stays "verifying": whatever raises inside one (here the run
stage tripping over the program's files) ends the pair's status with what went wrong, through the
real server over stdio with a real CPU-runtime build and run."""

from __future__ import annotations

from pathlib import Path

from tests.lsp.conftest import open_document
from tests.lsp.test_verification_lsp import FAST, GOOD, final_status, pair, save, session


async def test_an_exception_in_a_verification_ends_its_status(tmp_path: Path) -> None:
    _, hip, _ = pair(tmp_path, GOOD)
    # A data folder named like the built executable ("program"): copying the data into the run's
    # work dir, which already holds the executable under that name, raises FileExistsError.
    (tmp_path / "program").mkdir()
    (tmp_path / "program" / "input.txt").write_text("1 2 3\n")
    settings = {**FAST, "verification": {"debounceMs": 100, "run": True, "runner": "cpu"}}
    async with session(tmp_path, settings, trusted=True) as client:
        open_document(client, hip.as_uri(), hip.read_text(), language_id="hip")
        save(client, hip)
        status = await final_status(client, hip.as_uri(), timeout=90)
    assert status["state"] == "unverified", status
    assert "could not verify: FileExistsError" in status["summary"], status
