"""Regression tests for the scheduler defects of issue 19: a text that returns to an earlier
version (A -> B -> A) and the ERROR log of every superseded job."""

from __future__ import annotations

import asyncio
import gc
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from cass_lsp.core.cache import ResultCache
from cass_lsp.core.cancel import CancelToken, Superseded
from cass_lsp.core.jobs import JobKind
from cass_lsp.core.progress import Progress
from cass_lsp.core.scheduler import Scheduler

KIND = JobKind("test", concurrency=2, reads=())


def winding_down(started: threading.Event) -> Any:
    """Work that notices its cancellation late, as a compile does while its process group dies."""

    def work(token: CancelToken, progress: Progress) -> str:
        started.set()
        token.event.wait(5)
        time.sleep(0.3)
        token.check()
        return "never"

    return work


async def test_a_text_that_returns_to_an_earlier_version_gets_a_fresh_run(tmp_path: Path) -> None:
    jobs = Scheduler(ResultCache(tmp_path / "cache"))
    a_started, b_started = threading.Event(), threading.Event()
    first_a = jobs.submit(KIND, "doc", "A", winding_down(a_started))
    assert await asyncio.to_thread(a_started.wait, 2)
    b = jobs.submit(KIND, "doc", "B", winding_down(b_started))
    # undo: A again while the first run of A is still winding down from being superseded
    second_a = jobs.submit(KIND, "doc", "A", lambda token, progress: "A again")
    assert second_a is not first_a
    assert await asyncio.wait_for(second_a, 5) == "A again"
    with pytest.raises(Superseded):
        await first_a
    with pytest.raises(Superseded):
        await b
    await jobs.settle(5)
    # the first A's end did not take the key or the slot from the second run
    assert await jobs.run(KIND, "doc", "A", lambda token, progress: "third") == "third"


async def test_a_superseded_job_logs_nothing(tmp_path: Path) -> None:
    loop = asyncio.get_running_loop()
    reported: list[dict[str, Any]] = []
    previous = loop.get_exception_handler()
    loop.set_exception_handler(lambda _loop, context: reported.append(context))
    try:
        jobs = Scheduler(ResultCache(tmp_path / "cache"))
        started = threading.Event()
        old = jobs.submit(KIND, "doc", "v1", winding_down(started))
        assert await asyncio.to_thread(started.wait, 2)
        new = jobs.submit(KIND, "doc", "v2", lambda token, progress: "v2")
        assert await new == "v2"
        with pytest.raises(Superseded):
            await old
        await jobs.settle(5)
        del old, new
        gc.collect()
        await asyncio.sleep(0)
    finally:
        loop.set_exception_handler(previous)
    assert [context.get("message") for context in reported] == []
