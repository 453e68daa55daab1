"""The long fuzz run: random LSP traffic against the real server over stdio (CI runs the short
share: tests/fuzz/test_fuzz_lsp.py).

  .venv/bin/python benchmarks/fuzz_lsp.py [--messages 100000] [--seed N] [--restart-every 20000]

One server takes the traffic (valid and malformed JSON-RPC, wrong types, out-of-range positions,
huge documents, interleaved edits/cancels/code actions/hovers/commands/settings), restarted every
``--restart-every`` messages with a `shutdown` in the middle of traffic, as an editor restarts it.
Prints the figures: messages sent, requests, unanswered requests (hangs), internal errors, crashes,
documents whose server view differed from a fresh parse, processes and temp files left behind, and
the throughput against a reference measured in the same run (the same server answering only
documentSymbol requests on one small document).
Exit status 1 when any of crashes, hangs, internal errors, differing documents or leftovers is not 0.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.fuzz.drive import Figures, compare_documents, drive, errors
from tests.fuzz.messages import Generator
from tests.fuzz.wire import INVALID_REQUEST, WireServer

SETTINGS = {"asm": {"compileOnOpen": False, "targets": ["gfx1100"]}, "diagnostics": {"debounceMs": 20}}


def reference_rate(server: WireServer, root: Path, count: int = 500) -> float:
    """Messages a second for the simplest request on one small document (the same server)."""
    uri = (root / "reference.cu").as_uri()
    server.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": uri, "languageId": "cuda", "version": 1, "text": "__global__ void k() {}\n"}},
    )
    started = time.perf_counter()
    ids = [server.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}}) for _ in range(count)]
    assert server.wait_for(ids, 120) == []
    return count / (time.perf_counter() - started)


def one_server(work: Path, seed: int, messages: int, figures: Figures, leftovers: list[str]) -> float:
    root = work / "workspace"
    root.mkdir(parents=True)
    server = WireServer(work, settings=SETTINGS)
    server.initialize({"cass": SETTINGS, "workspaceTrusted": False}, root=root)
    rng = random.Random(seed)
    gen = Generator(rng, root, allow_huge=True)
    reference = reference_rate(server, root)
    part = drive(server, gen, messages)
    compare_documents(server, gen, part)
    # shutdown in the middle of traffic: what follows must be refused, then exit
    tail = [server.request("shutdown")]
    for _ in range(20):
        server.send_bytes(gen.next())
    tail_ids = [i for i in gen.sent_ids if i not in server.responses]
    missing = server.wait_for([*tail, *tail_ids], 120)
    part.unanswered += missing
    refused_wrongly = [
        i for i in tail_ids if server.responses.get(i, {}).get("error", {}).get("code") != INVALID_REQUEST
    ]
    errors(server, gen, tail_ids, part)
    server.notify("exit")
    try:
        code = server.proc.wait(60)
    except Exception:
        code = server.kill()
    server.close()
    part.crashed = part.crashed or code != 0
    leftovers += server.leftovers() + [f"temp: {t}" for t in server.temp_files()]
    if refused_wrongly:
        part.error_samples.append(f"requests after shutdown not refused: {refused_wrongly[:5]}")
    figures.merge(part)
    print(
        f"  seed {seed}: {part.messages} messages in {part.seconds:.1f} s, {part.requests} requests, "
        f"exit {code}, kinds {dict(sorted(gen.counts.items()))}",
        flush=True,
    )
    return reference


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=int(time.time()))
    parser.add_argument("--restart-every", type=int, default=20_000)
    args = parser.parse_args()
    figures = Figures()
    leftovers: list[str] = []
    references = []
    print(f"fuzz_lsp: {args.messages} messages, seed {args.seed} (replay with --seed {args.seed})", flush=True)
    with tempfile.TemporaryDirectory(prefix="cass-fuzz-") as tmp:
        sent, number = 0, 0
        while sent < args.messages:
            count = min(args.restart_every, args.messages - sent)
            references.append(one_server(Path(tmp) / f"server{number}", args.seed + number, count, figures, leftovers))
            sent += count
            number += 1
    rate = figures.messages / figures.seconds if figures.seconds else 0.0
    reference = sum(references) / len(references)
    internal = sum(figures.internal_errors.values())
    print(
        f"messages sent: {figures.messages}\n"
        f"requests: {figures.requests} (unanswered: {len(figures.unanswered)})\n"
        f"crashes: {int(figures.crashed)}\n"
        f"internal errors: {internal} {dict(figures.internal_errors)}\n"
        f"documents compared with a fresh parse: {figures.documents_compared} (differing: {len(figures.documents_differing)})\n"
        f"processes and temp files left behind: {len(leftovers)} {leftovers[:5]}\n"
        f"throughput: {rate:.0f} messages/s; reference (documentSymbol only): {reference:.0f}/s; ratio {rate / reference:.2f}"
    )
    for sample in figures.error_samples + figures.documents_differing[:3]:
        print("  ", sample)
    bad = (
        figures.crashed
        or figures.unanswered
        or internal
        or figures.documents_differing
        or leftovers
        or figures.error_samples
    )
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
