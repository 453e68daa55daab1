"""The one scheduler for slow per-document work: shared runs, supersede/cancel, bounded concurrency.

A job is ``work(token, progress) -> result``, a synchronous function run on a worker thread of its
kind's pool (so a kind's concurrency is its pool size, and compiles can never take the threads that
translations need). It is identified by:

- its **key**: a content hash of every input it reads (see :mod:`.keys`). Two requests with the
  same key share one run; a memoized kind also answers later requests from the result cache.
- its **slot**: what it is the latest result *for* (a document and kind, a document and target).
  Submitting a different key to a busy slot cancels the running job there (its token is set, so its
  subprocesses die with their process group and pure-Python work stops at its next check), and
  whoever waited for it gets :class:`~.cancel.Superseded`.

The scheduler knows no LSP types. It runs on one asyncio loop; results of work arrive on it.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import threading
from collections.abc import Callable, Hashable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from cass_lsp.core.cache import ResultCache
from cass_lsp.core.cancel import Cancelled, CancelToken, Superseded
from cass_lsp.core.jobs import JobKind
from cass_lsp.core.progress import SILENT, Progress, ProgressSink

log = logging.getLogger(__name__)

T = TypeVar("T")
Work = Callable[[CancelToken, Progress], T]


@dataclasses.dataclass
class _Running:
    kind: JobKind
    key: str
    slot: Hashable
    token: CancelToken
    future: asyncio.Future[Any]


class Scheduler:
    def __init__(self, cache: ResultCache | None = None, progress: ProgressSink = SILENT) -> None:
        self.cache = cache or ResultCache()
        self.progress = progress
        self._pools: dict[str, ThreadPoolExecutor] = {}
        self._running: dict[tuple[str, str], _Running] = {}
        self._slots: dict[tuple[str, Hashable], _Running] = {}
        self._closed = False

    # ------------------------------------------------------------------ submitting
    def ready(self, kind: JobKind, key: str) -> Any | None:
        """A memoized result for ``key`` if one is in memory (no waiting, no I/O)."""
        return self.cache.peek(kind.name, key) if kind.memoize else None

    def submit(
        self, kind: JobKind, slot: Hashable, key: str, work: Work[T], *, title: str | None = None
    ) -> asyncio.Future[T]:
        """The (possibly shared) future of the job ``key``; starts it if nothing runs it yet."""
        loop = asyncio.get_running_loop()
        hit = self.ready(kind, key)
        if hit is not None:
            done: asyncio.Future[T] = loop.create_future()
            done.set_result(hit)
            return done
        running = self._running.get((kind.name, key))
        # A cancelled run of this key (A -> B -> A: an undo, a reverted save) is still winding down
        # but will only ever end in Cancelled: the key needs a run of its own, not that one's end.
        if running is None or running.token.cancelled:
            if self._closed:
                raise Cancelled("the scheduler is shut down")
            running = self._start(kind, slot, key, work, title)
        elif self._slots.get((kind.name, slot)) is not running:
            self._take_slot(running, slot)
        return running.future

    async def run(self, kind: JobKind, slot: Hashable, key: str, work: Work[T], *, title: str | None = None) -> T:
        """Await the job; cancelling this await does not cancel a run that others may share."""
        return await asyncio.shield(self.submit(kind, slot, key, work, title=title))

    def cancel_slot(self, kind: JobKind, slot: Hashable) -> None:
        running = self._slots.pop((kind.name, slot), None)
        if running is not None:
            running.token.cancel()

    def cancel_slots(self, belongs: Callable[[Hashable], bool]) -> None:
        """Cancel the running job of every slot ``belongs(slot)`` says yes to (a closed document)."""
        for (name, slot), running in list(self._slots.items()):
            if belongs(slot):
                del self._slots[(name, slot)]
                running.token.cancel()

    async def settle(self, timeout: float) -> None:
        """Wait (at most ``timeout`` seconds) until no job runs any more, and a moment more for
        those who awaited them to take the outcome."""
        running = [r.future for r in self._running.values()]
        if running:
            await asyncio.wait(running, timeout=timeout)
        for _ in range(3):
            await asyncio.sleep(0)

    def shutdown(self) -> None:
        """Cancel everything (killing subprocesses) and stop the pools without waiting."""
        self._closed = True
        for running in list(self._running.values()):
            running.token.cancel()
        for pool in self._pools.values():
            pool.shutdown(wait=False, cancel_futures=True)

    def join(self, timeout: float) -> bool:
        """Block (never on the event loop) until every job's thread has ended, at most ``timeout``
        seconds; after :meth:`shutdown` that is when their process groups are killed. False when
        some thread still runs."""
        pools = list(self._pools.values())

        def wait_all() -> None:
            for pool in pools:
                pool.shutdown(wait=True)

        waiter = threading.Thread(target=wait_all, daemon=True)
        waiter.start()
        waiter.join(timeout)
        return not waiter.is_alive()

    # ------------------------------------------------------------------ internals
    def _take_slot(self, running: _Running, slot: Hashable) -> None:
        previous = self._slots.get((running.kind.name, slot))
        if previous is not None and previous is not running:
            previous.token.cancel(Superseded)
        self._slots[(running.kind.name, slot)] = running
        running.slot = slot

    def _pool(self, kind: JobKind) -> ThreadPoolExecutor:
        pool = self._pools.get(kind.name)
        if pool is None:
            pool = self._pools[kind.name] = ThreadPoolExecutor(kind.concurrency, thread_name_prefix=f"cass-{kind.name}")
        return pool

    def _start(self, kind: JobKind, slot: Hashable, key: str, work: Work[T], title: str | None) -> _Running:
        loop = asyncio.get_running_loop()
        token = CancelToken()
        future: asyncio.Future[T] = loop.create_future()
        running = _Running(kind, key, slot, token, future)
        self._running[(kind.name, key)] = running
        self._take_slot(running, slot)

        def call() -> T:
            token.check()  # superseded while it queued for a worker
            progress = self.progress.begin(title, token) if title else SILENT.begin("", None)
            try:
                result = work(token, progress)
            finally:
                progress.end()
            if kind.memoize:  # here, not on the event loop: the cache encodes it to learn its size
                self.cache.put(kind.name, key, result)
            return result

        def finished(done: asyncio.Future[T]) -> None:
            if self._running.get((kind.name, key)) is running:  # a newer run of the key may hold it
                del self._running[(kind.name, key)]
            if self._slots.get((kind.name, running.slot)) is running:
                del self._slots[(kind.name, running.slot)]
            # read the thread's outcome first, whatever wins below: an exception nobody reads is
            # logged at ERROR ("Future exception was never retrieved") for every superseded job
            error = None if done.cancelled() else done.exception()
            if future.done():
                return
            if token.cancelled:
                future.set_exception(token.reason())
            elif done.cancelled():
                future.set_exception(Cancelled())
            elif error is not None:
                future.set_exception(error)
            else:
                future.set_result(done.result())

        inner = loop.run_in_executor(self._pool(kind), call)
        inner.add_done_callback(finished)
        # a result nobody awaits must not log "exception was never retrieved"
        future.add_done_callback(lambda f: f.cancelled() or f.exception())
        return running
