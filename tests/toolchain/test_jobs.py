"""The job layer with a real process: a superseded compile-like job leaves none behind; the job layer on its own
is tested in tests/unit/test_jobs.py."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest

from cass_lsp.core import proc
from cass_lsp.core.cancel import CancelToken, Superseded
from cass_lsp.core.progress import Progress
from tests.unit.test_jobs import KIND, scheduler


async def test_a_superseded_compile_leaves_no_process(tmp_path: Path) -> None:
    jobs = scheduler(tmp_path)
    pids: list[int] = []
    marker = tmp_path / "pid"

    def compile_like(token: CancelToken, progress: Progress) -> str:
        script = f"import os, time; open({str(marker)!r}, 'w').write(str(os.getpid())); time.sleep(60)"
        result = proc.run([sys.executable, "-c", script], timeout=60, cancel=token.event)
        return "cancelled" if result.cancelled else "finished"

    old = jobs.submit(KIND, ("doc", "sm_90"), "v1", compile_like)
    for _ in range(200):
        if marker.exists() and marker.read_text():
            break
        await asyncio.sleep(0.02)
    pids.append(int(marker.read_text()))
    jobs.submit(KIND, ("doc", "sm_90"), "v2", lambda token, progress: "v2")
    with pytest.raises(Superseded):
        await old
    await asyncio.sleep(0.2)
    with pytest.raises(ProcessLookupError):
        os.kill(pids[0], 0)
