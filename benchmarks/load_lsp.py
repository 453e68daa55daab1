"""Load: 50 open documents edited continuously while compiles and verification run in the
background, through the real server over stdio.

  .venv/bin/python benchmarks/load_lsp.py [--documents 50] [--seconds 300] [--lines 300]

Reference (same run, same server, before the load): hover and code action latency on one open
document with nothing else going on. Under load: every document gets an edit each round (a
keystroke; a round every ``--round-ms``), every 10th round one document is saved (listing compiles and a verification compile
start), and a hover and a code action are timed each round. Prints p50/p95 under load against the
reference, the ratio, and the server's resident memory at the start, its peak, and over the last
third of the run against the middle third (bounded memory: no steady growth). Goals (from the
hover and code action issues): hover p95 <= 50 ms while compiles run; memory growth over the last
third under 10%. The default five minutes let the result cache's memory layer (32 MB of encoded
records) fill: over two minutes the server is still filling it, which reads as growth.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._corpus import cuda_source
from tests.fuzz.wire import WireServer

SETTINGS = {
    "asm": {"targets": ["gfx1100"], "compileOnOpen": False},
    "diagnostics": {"debounceMs": 250},
    "verification": {"enabled": True, "watch": False},
}


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def timed(server: WireServer, method: str, params: Any) -> float:
    started = time.perf_counter()
    reply = server.call(method, params, timeout=120)
    assert "result" in reply, reply
    return (time.perf_counter() - started) * 1000


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1] if len(values) >= 2 else values[0]


def hover_params(uri: str, line: int) -> dict[str, Any]:
    return {"textDocument": {"uri": uri}, "position": {"line": line, "character": 10}}


def action_params(uri: str, line: int) -> dict[str, Any]:
    position = {"line": line, "character": 0}
    return {"textDocument": {"uri": uri}, "range": {"start": position, "end": position}, "context": {"diagnostics": []}}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--documents", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=300.0)
    parser.add_argument("--lines", type=int, default=300)
    parser.add_argument(
        "--round-ms", type=float, default=200.0, help="one edit to every document per round (50 docs: 250 edits/s)"
    )
    args = parser.parse_args()
    rng = random.Random(1)
    with tempfile.TemporaryDirectory(prefix="cass-load-") as tmp:
        root = Path(tmp) / "workspace"
        root.mkdir()
        server = WireServer(Path(tmp), settings=SETTINGS)
        server.initialize({"cass": SETTINGS}, root=root)
        texts = {}
        for number in range(args.documents):
            path = root / f"unit{number}.cu"
            text = cuda_source(args.lines) + f"// unit {number}\n"
            path.write_text(text)
            texts[path.as_uri()] = text
        uris = list(texts)
        kernel_line = next(i for i, line in enumerate(texts[uris[0]].splitlines()) if "__syncthreads" in line)

        # reference: one document open, nothing else going on
        server.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": uris[0], "languageId": "cuda", "version": 1, "text": texts[uris[0]]}},
        )
        timed(server, "textDocument/hover", hover_params(uris[0], kernel_line))
        ref_hover = [
            timed(server, "textDocument/hover", hover_params(uris[0], kernel_line + 20 * (i % 5))) for i in range(100)
        ]
        ref_action = [timed(server, "textDocument/codeAction", action_params(uris[0], kernel_line)) for _ in range(50)]
        start_rss = rss_mb(server.proc.pid)

        for uri in uris[1:]:
            server.notify(
                "textDocument/didOpen",
                {"textDocument": {"uri": uri, "languageId": "cuda", "version": 1, "text": texts[uri]}},
            )
        versions = dict.fromkeys(uris, 1)
        hovers: list[float] = []
        actions: list[float] = []
        samples: list[tuple[float, float]] = []
        started = time.monotonic()
        rounds = 0
        while time.monotonic() - started < args.seconds:
            round_started = time.monotonic()
            for uri in uris:
                versions[uri] += 1
                line = rng.randrange(kernel_line, kernel_line + 200)
                change = {
                    "range": {"start": {"line": line, "character": 0}, "end": {"line": line, "character": 0}},
                    "text": " ",
                }
                server.notify(
                    "textDocument/didChange",
                    {"textDocument": {"uri": uri, "version": versions[uri]}, "contentChanges": [change]},
                )
            if rounds % 10 == 0:
                server.notify("textDocument/didSave", {"textDocument": {"uri": rng.choice(uris)}})
            uri = rng.choice(uris)
            hovers.append(timed(server, "textDocument/hover", hover_params(uri, kernel_line + rng.randrange(200))))
            actions.append(timed(server, "textDocument/codeAction", action_params(uri, kernel_line)))
            samples.append((time.monotonic() - started, rss_mb(server.proc.pid)))
            rounds += 1
            time.sleep(max(0.0, args.round_ms / 1000 - (time.monotonic() - round_started)))
        messages = server.sent
        peak = max(r for _, r in samples)
        third = len(samples) // 3
        middle = statistics.mean(r for _, r in samples[third : 2 * third])
        last = statistics.mean(r for _, r in samples[2 * third :])
        code = server.close()
        leftovers = server.leftovers()
        temp = server.temp_files()
    hover_ratio = p95(hovers) / p95(ref_hover)
    action_ratio = p95(actions) / p95(ref_action)
    growth = (last - middle) / middle * 100
    print(
        f"load: {args.documents} documents, {rounds} rounds in {args.seconds:.0f} s, {messages} messages, "
        f"{rounds * args.documents} edits\n"
        f"hover ms        p50 {statistics.median(hovers):7.2f}  p95 {p95(hovers):7.2f}   reference p50 {statistics.median(ref_hover):6.2f} p95 {p95(ref_hover):6.2f}   ratio(p95) {hover_ratio:5.1f}\n"
        f"code action ms  p50 {statistics.median(actions):7.2f}  p95 {p95(actions):7.2f}   reference p50 {statistics.median(ref_action):6.2f} p95 {p95(ref_action):6.2f}   ratio(p95) {action_ratio:5.1f}\n"
        f"memory MB       start {start_rss:.0f}  peak {peak:.0f}  middle third {middle:.0f}  last third {last:.0f}  growth {growth:+.1f}%\n"
        f"exit code {code}; processes left behind {len(leftovers)}; temp files left {len(temp)}\n"
        f"goals: hover p95 <= 50 ms under load: {'met' if p95(hovers) <= 50 else 'MISSED'}; "
        f"memory growth over the last third < 10%: {'met' if growth < 10 else 'MISSED'}"
    )
    return 0 if code == 0 and not leftovers and not temp else 1


if __name__ == "__main__":
    sys.exit(main())
