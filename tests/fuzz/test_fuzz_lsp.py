"""Hypothesis-driven LSP traffic against the real server over stdio (the short CI share; the long
run is benchmarks/fuzz_lsp.py).

Valid and malformed JSON-RPC, wrong types, out-of-range positions, huge documents, interleaved
didChange/cancel/codeAction/hover/commands/settings and `shutdown`: the server never dies, answers
every request (a result or a clear error, never an internal error), and its view of each document
equals a fresh parse of the text the editor holds. Real toolchains: compiles that hovers and
`cass/assembly` start run for real (and are superseded and killed as the text moves on).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from tests.fuzz.drive import Figures, compare_documents, drive, errors
from tests.fuzz.messages import Generator
from tests.fuzz.wire import INVALID_REQUEST, WireServer

SETTINGS = {"asm": {"compileOnOpen": False, "targets": ["gfx1100"]}, "diagnostics": {"debounceMs": 20}}


def fuzz(examples: int) -> settings:
    return settings(_FUZZ, max_examples=examples)


_FUZZ = settings(
    deadline=None,
    derandomize=True,  # the CI share is the same traffic every run; the benchmark explores
    database=None,
    # no shrinking: each step is a live server exchanging hundreds of messages; the failing
    # example is reported as found (the long run in benchmarks/ prints its seed to replay)
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[WireServer, Path, Figures]]:
    """One server for the whole module, as an editor keeps one for days."""
    work = tmp_path_factory.mktemp("fuzz")
    root = work / "workspace"
    root.mkdir()
    server = WireServer(work, settings=SETTINGS)
    server.initialize({**SETTINGS, "workspaceTrusted": False}, root=root)
    total = Figures()
    yield server, root, total
    code = server.close()
    print(
        f"\nfuzz (short): {total.messages} messages, {total.requests} requests, {total.documents_compared} documents compared"
    )
    assert total.requests > 0 and total.documents_compared > 0  # the traffic was not all notifications
    assert code == 0, server.stderr()[-3000:]
    assert server.leftovers() == []
    assert server.temp_files() == []
    # edits, translations and verification went on all along: the server itself wrote nothing into
    # the workspace (its edits reach files only through the editor)
    assert sorted(root.rglob("*")) == []


def _check(server: WireServer, figures: Figures) -> None:
    assert not figures.crashed and server.alive, server.stderr()[-3000:]
    assert figures.unanswered == [], f"unanswered requests: {figures.unanswered[:10]}"
    assert not figures.internal_errors, f"internal errors: {dict(figures.internal_errors)}: {figures.error_samples}"
    assert figures.documents_differing == []


@fuzz(12)
@given(rng=st.randoms(use_true_random=False))
def test_random_traffic_is_answered_and_keeps_every_character(
    served: tuple[WireServer, Path, Figures], rng: random.Random
) -> None:
    server, root, total = served
    gen = Generator(rng, root, allow_huge=True)
    figures = drive(server, gen, 100)
    compare_documents(server, gen, figures)
    total.merge(figures)
    _check(server, figures)


@fuzz(8)
@given(rng=st.randoms(use_true_random=False))
def test_edit_sequences_leave_the_same_document_as_a_fresh_parse(
    served: tuple[WireServer, Path, Figures], rng: random.Random
) -> None:
    """Only opens and valid incremental edits (UTF-16 columns, astral characters, CRLF), then the
    outline and folding of every document equal those of the final text opened afresh."""
    server, root, total = served
    gen = Generator(rng, root, allow_huge=False)
    figures = Figures()
    for _ in range(3):
        server.send_bytes(gen.next_of("open"))
    for _ in range(60):
        server.send_bytes(gen.next_of(rng.choice(["change", "change", "change", "full_change", "hover"])))
    figures.unanswered = server.wait_for(gen.sent_ids, 120)
    compare_documents(server, gen, figures)
    total.merge(figures)
    _check(server, figures)
    assert figures.documents_compared >= 1


@fuzz(3)
@given(rng=st.randoms(use_true_random=False))
def test_requests_after_shutdown_are_refused_and_exit_leaves_nothing(
    tmp_path_factory: pytest.TempPathFactory, rng: random.Random
) -> None:
    """`shutdown` in the middle of traffic: what came before is answered, every request after it
    gets InvalidRequest, `exit` ends the server with code 0, no child process or temp file stays."""
    work = tmp_path_factory.mktemp("shutdown")
    root = work / "workspace"
    root.mkdir()
    server = WireServer(work, settings=SETTINGS)
    try:
        server.initialize({**SETTINGS, "workspaceTrusted": False}, root=root)
        gen = Generator(rng, root, allow_huge=False)
        # traffic still in flight when `shutdown` arrives: handlers that start after it must answer
        # (cancelled or a result), not fail
        for _ in range(rng.randint(5, 40)):
            server.send_bytes(gen.next())
        server.send_bytes(gen.next_of("assembly"))
        shutdown = server.request("shutdown")
        after_gen = Generator(rng, root, allow_huge=False, next_id=900_000)
        after = [
            server.request(
                "textDocument/hover",
                {"textDocument": {"uri": (root / "a.cu").as_uri()}, "position": {"line": 0, "character": 0}},
            )
        ]
        for _ in range(10):
            server.send_bytes(after_gen.next())
        after += after_gen.sent_ids
        before = Figures(unanswered=server.wait_for([*gen.sent_ids, shutdown, *after], 120))
        errors(server, gen, gen.sent_ids, before)
        _check(server, before)
        assert server.responses[shutdown].get("result", "missing") is None
        refused = {i: server.responses[i].get("error", {}).get("code") for i in after}
        assert set(refused.values()) == {INVALID_REQUEST}, refused
        server.notify("exit")
        assert server.proc.wait(30) == 0
    finally:
        if server.alive:
            server.kill()
        else:
            server.close()
    assert server.leftovers() == []
    assert server.temp_files() == []
