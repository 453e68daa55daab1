"""The pairs waiting to be verified: each debounced, the newest change of a pair replacing the
older, at most `cass.verification.maxQueued` waiting (the oldest waiting change dropped and logged)."""

from __future__ import annotations

import collections
import logging
from collections.abc import Callable, Iterable

from cass_lsp.core.pairs import Pair
from cass_lsp.server.app import CassServer

log = logging.getLogger(__name__)


class PairQueue:
    def __init__(self, server: CassServer, start: Callable[[Pair], object]) -> None:
        # ``start`` begins a task that reports by itself: its value is nobody's
        self._server = server
        self._start = start
        self._waiting: collections.OrderedDict[str, Pair] = collections.OrderedDict()
        self._dropped = 0

    def put(self, batch: Iterable[Pair]) -> list[Pair]:
        """Queue ``batch``; the pairs of it the bounded queue kept (to be told "queued")."""
        originals = set()
        for pair in batch:
            self._put(pair)
            originals.add(pair.original)
        return [self._waiting[original] for original in originals & self._waiting.keys()]

    def _put(self, pair: Pair) -> None:
        settings = self._server.resolved.verification
        self._waiting.pop(pair.original, None)
        self._waiting[pair.original] = pair
        while len(self._waiting) > max(1, settings.max_queued):
            dropped, _ = self._waiting.popitem(last=False)
            self._server.cancel_debounce(key(dropped))
            self._dropped += 1
            if self._dropped == 1 or self._dropped % 100 == 0:
                log.warning("verification queue full: %d change(s) dropped so far (latest: %s)", self._dropped, dropped)
        self._server.debounce(key(pair.original), settings.debounce_ms / 1000, lambda: _ignore(self._start(pair)))

    def take(self, pair: Pair) -> None:
        """``pair`` starts now: it no longer waits."""
        self._waiting.pop(pair.original, None)

    def drop(self, pair: Pair) -> None:
        """``pair`` is no more: its waiting change goes."""
        self._server.cancel_debounce(key(pair.original))
        self._waiting.pop(pair.original, None)


def key(original: str) -> str:
    """The debounce key of a pair."""
    return f"verify:{original}"


def _ignore(_: object) -> None:
    """For callbacks that start a task nobody awaits."""
