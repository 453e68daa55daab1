"""Driving a server with generated traffic and checking what came back (tests and benchmark)."""

from __future__ import annotations

import collections
import time
from dataclasses import dataclass, field
from typing import Any

from tests.fuzz.messages import Generator
from tests.fuzz.wire import INTERNAL_ERROR, WireServer

ANSWER_TIMEOUT_S = 180.0
"""Generous: a request may wait for a real compile, on two cores shared with other work."""
SYNC_EVERY = 200
"""Messages between waits for every answer: keeps a few hundred requests in flight at most."""
EQUIVALENCE_MAX_CHARS = 200_000


@dataclass
class Figures:
    messages: int = 0
    requests: int = 0
    unanswered: list[Any] = field(default_factory=list)
    internal_errors: collections.Counter[str] = field(default_factory=collections.Counter)
    error_samples: list[str] = field(default_factory=list)
    documents_compared: int = 0
    documents_differing: list[str] = field(default_factory=list)
    crashed: bool = False
    seconds: float = 0.0

    def merge(self, other: Figures) -> None:
        self.messages += other.messages
        self.requests += other.requests
        self.unanswered += other.unanswered
        self.internal_errors.update(other.internal_errors)
        self.error_samples += other.error_samples[: max(0, 5 - len(self.error_samples))]
        self.documents_compared += other.documents_compared
        self.documents_differing += other.documents_differing
        self.crashed = self.crashed or other.crashed
        self.seconds += other.seconds


def drive(server: WireServer, gen: Generator, count: int, answer_timeout: float = ANSWER_TIMEOUT_S) -> Figures:
    """Send `count` generated messages, waiting for all answers every SYNC_EVERY messages and at
    the end. Counts requests never answered, internal errors (a request the server failed on
    rather than refused), and whether the server died."""
    figures = Figures()
    started = time.perf_counter()
    checked = 0
    for number in range(count):
        server.send_bytes(gen.next())
        figures.messages += 1
        if (number + 1) % SYNC_EVERY == 0 or number == count - 1:
            ids = gen.sent_ids[checked:]
            checked = len(gen.sent_ids)
            figures.unanswered += server.wait_for(ids, answer_timeout)
            errors(server, gen, ids, figures)
        if not server.alive:
            figures.crashed = True
            break
    figures.requests = len(gen.sent_ids)
    figures.seconds = time.perf_counter() - started
    return figures


def errors(server: WireServer, gen: Generator, ids: list[Any], figures: Figures) -> None:
    """Count the internal errors among the answers to `ids`."""
    for msg_id in ids:
        reply = server.responses.get(msg_id)
        error = reply.get("error") if isinstance(reply, dict) else None
        if isinstance(error, dict) and error.get("code") == INTERNAL_ERROR:
            method = gen.methods.get(msg_id, "?")
            figures.internal_errors[method] += 1
            if len(figures.error_samples) < 5:
                figures.error_samples.append(f"{method}: {str(error.get('message'))[:300]}")


def compare_documents(server: WireServer, gen: Generator, figures: Figures) -> None:
    """Each document whose every change the client model followed: its outline and folding ranges
    from the server equal those of a fresh document opened with the text the editor holds."""
    for number, doc in enumerate(list(gen.docs.values())):
        if not doc.tracked or len(doc.text) > EQUIVALENCE_MAX_CHARS:
            continue
        fresh = doc.uri.rsplit("/", 1)[0] + f"/fresh-{number}.cu"
        server.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": fresh, "languageId": "cuda", "version": 1, "text": doc.text}},
        )
        views = []
        for uri in (doc.uri, fresh):
            views.append(
                [
                    server.call(method, {"textDocument": {"uri": uri}}, timeout=ANSWER_TIMEOUT_S).get("result")
                    for method in ("textDocument/documentSymbol", "textDocument/foldingRange")
                ]
            )
        server.notify("textDocument/didClose", {"textDocument": {"uri": fresh}})
        figures.documents_compared += 1
        if views[0] != views[1]:
            figures.documents_differing.append(f"{doc.uri} v{doc.version}: {views[0]!r:.300} != {views[1]!r:.300}")
