"""Document model costs on a 5k-line CUDA file, as ratios against bare tree-sitter in the same run.

  .venv/bin/python benchmarks/bench_document.py

1. incremental re-parse after a 1-character edit: CudaDocument.apply_changes and a read of its tree
   (edits wait for a read to re-parse) vs tree.edit + parse with the old tree (goal: ratio <= 2)
2. documentSymbol after a 1-line edit: the in-process outline (with the re-parse the edit left for
   the first read), and the round trip over stdio
   (didChange, then documentSymbol, until the reply is decoded), as flat SymbolInformation and as the
   hierarchical DocumentSymbol tree editors ask for (goal: p95 <= 15 ms for the latter)
"""

from __future__ import annotations

import asyncio
import gc
import json
import statistics
import sys
import time
from asyncio.subprocess import PIPE
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._corpus import cuda_source
from cass_lsp.server.symbols import document_symbols
from cass_lsp.syntax import parsing as syntax
from cass_lsp.syntax.document import CudaDocument, TextChange

ROUNDS = 200
SYMBOL_ROUNDS = 100
SYMBOL_GOAL_S = 0.015


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def edit_positions(text: str) -> list[tuple[int, int]]:
    """Spread edits over the file: each is the start of a `tile[...]` index on some line."""
    lines = text.splitlines()
    return [(n, line.index("tile[") + 5) for n, line in enumerate(lines) if "tile[threadIdx.x] =" in line]


def bench_reparse(text: str) -> tuple[float, float]:
    positions = edit_positions(text)
    doc = CudaDocument("file:///bench.cu", text)
    parser = syntax.new_parser()
    source = text.encode()
    tree = parser.parse(source)
    line_starts = [0]
    for i, byte in enumerate(source):
        if byte == 10:
            line_starts.append(i + 1)

    ours, raw = [], []
    for round_ in range(ROUNDS):
        line, col = positions[round_ % len(positions)]
        # insert then delete one character so the file keeps its size
        for insert in (True, False):
            change = (
                TextChange("x", ((line, col), (line, col)))
                if insert
                else TextChange("", ((line, col), (line, col + 1)))
            )
            start = time.perf_counter()
            doc.apply_changes([change])
            assert doc.tree is not None  # the edit only marks the tree; reading it re-parses
            ours.append(time.perf_counter() - start)

            offset = line_starts[line] + col
            start = time.perf_counter()
            if insert:
                source = source[:offset] + b"x" + source[offset:]
                tree.edit(offset, offset, offset + 1, (line, col), (line, col), (line, col + 1))
            else:
                source = source[:offset] + source[offset + 1 :]
                tree.edit(offset, offset + 1, offset, (line, col), (line, col + 1), (line, col))
            tree = parser.parse(source, tree)
            raw.append(time.perf_counter() - start)
    assert doc.source == source
    return statistics.median(ours), statistics.median(raw)


def one_line_edits(text: str, rounds: int) -> list[tuple[int, int, str]]:
    """(line, column, inserted text) edits spread over the file: insert a character into a line,
    then delete it again, so the file keeps its size and every edit touches one line."""
    positions = edit_positions(text)
    edits = []
    for round_ in range(rounds):
        line, col = positions[(round_ // 2 * 7) % len(positions)]
        edits.append((line, col, "x" if round_ % 2 == 0 else ""))
    return edits


def bench_symbols(text: str) -> list[float]:
    doc = CudaDocument("file:///bench.cu", text)
    document_symbols(doc)  # the first outline extracts everything; the edits below are what is measured
    samples = []
    for line, col, insert in one_line_edits(text, SYMBOL_ROUNDS):
        end = col if insert else col + 1
        doc.apply_changes([TextChange(insert, ((line, col), (line, end)))])
        start = time.perf_counter()
        document_symbols(doc)
        samples.append(time.perf_counter() - start)
    return samples


class RawClient:
    """A bare JSON-RPC client over the server's stdio. pygls's LanguageClient turns every reply into
    lsprotocol objects, which for an outline of a thousand symbols costs more than the server spends
    serializing it; an editor only decodes the JSON, and so does this client."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        assert process.stdin is not None and process.stdout is not None
        self.stdin, self.stdout = process.stdin, process.stdout
        self.next_id = 0
        self.reply_began = 0.0  # perf_counter() when the last message's header arrived

    def notify(self, method: str, params: object) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    async def request(self, method: str, params: object) -> object:
        self.next_id += 1
        self._send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        while True:
            message = await self._receive()
            if "method" not in message and message.get("id") == self.next_id:
                return message.get("result")
            if "method" in message and "id" in message:  # a request of the server's own: say nothing
                self._send({"jsonrpc": "2.0", "id": message["id"], "result": None})

    def _send(self, message: dict[str, object]) -> None:
        body = json.dumps(message).encode()
        self.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    async def _receive(self) -> dict[str, Any]:
        header = await self.stdout.readuntil(b"\r\n\r\n")
        self.reply_began = time.perf_counter()
        length = next(
            int(line.split(b":")[1]) for line in header.split(b"\r\n") if line.lower().startswith(b"content-length")
        )
        message: dict[str, Any] = json.loads(await self.stdout.readexactly(length))
        return message


async def bench_lsp_symbols(text: str, hierarchical: bool) -> tuple[list[float], list[float]]:
    """documentSymbol round trips over stdio, each right after a didChange of one line: the time
    from sending the change to having the decoded reply, and to the reply's first byte (what the
    server takes, without the client's decoding)."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "cass_lsp", "--stdio", stdin=PIPE, stdout=PIPE, limit=1 << 24
    )
    client = RawClient(process)
    # background work (translation diagnostics, listings) off: this measures the outline alone
    quiet = {"diagnostics": {"enabled": False}, "asm": {"compileOnOpen": False}}
    symbols = {"documentSymbol": {"hierarchicalDocumentSymbolSupport": hierarchical}}
    init = {"processId": None, "rootUri": None, "capabilities": {"textDocument": symbols}}
    await client.request("initialize", {**init, "initializationOptions": quiet})
    client.notify("initialized", {})
    uri = "file:///bench.cu"
    item = {"uri": uri, "languageId": "cuda", "version": 1, "text": text}
    client.notify("textDocument/didOpen", {"textDocument": item})
    await client.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
    samples, first_bytes = [], []
    # The measuring client's own garbage collector (json.loads of a ~280 kB reply makes ~50k objects)
    # would otherwise add pauses of up to ~25 ms to random samples: they are not the server's.
    gc.disable()
    for version, (line, col, insert) in enumerate(one_line_edits(text, SYMBOL_ROUNDS), start=2):
        end = col if insert else col + 1
        change = {"range": {"start": {"line": line, "character": col}, "end": {"line": line, "character": end}}}
        start = time.perf_counter()
        client.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": uri, "version": version}, "contentChanges": [{**change, "text": insert}]},
        )
        await client.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
        samples.append(time.perf_counter() - start)
        first_bytes.append(client.reply_began - start)
    gc.enable()
    await client.request("shutdown", None)
    client.notify("exit", None)
    await process.wait()
    return samples, first_bytes


def report(label: str, samples: list[float], full_parse: float) -> None:
    p50, p95 = percentile(samples, 0.5), percentile(samples, 0.95)
    print(f"{label}: p50 {p50 * 1e3:.2f} ms, p95 {p95 * 1e3:.2f} ms ({p50 / full_parse:.2f}x a full parse)")


def verdict(met: bool) -> str:
    return "met" if met else "NOT met"


def main() -> None:
    text = cuda_source(5000)
    lines = text.count("\n")
    full = []
    for _ in range(5):
        start = time.perf_counter()
        syntax.parse(text.encode())
        full.append(time.perf_counter() - start)
    ours, raw = bench_reparse(text)
    print(
        f"file: {lines} lines, {len(text.encode()):,} bytes; full tree-sitter parse {statistics.median(full) * 1e3:.2f} ms"
    )
    print(
        f"1-char edit re-parse: cass-lsp {ours * 1e3:.3f} ms, bare tree-sitter {raw * 1e3:.3f} ms, ratio {ours / raw:.2f}x (goal <= 2x)"
    )
    symbols = bench_symbols(text)
    reference = statistics.median(full)
    report("documentSymbol in-process after a 1-line edit", symbols, reference)
    flat, _ = asyncio.run(bench_lsp_symbols(text, hierarchical=False))
    report("documentSymbol over LSP stdio after a 1-line edit, flat SymbolInformation", flat, reference)
    lsp, first_byte = asyncio.run(bench_lsp_symbols(text, hierarchical=True))
    report("documentSymbol over LSP stdio after a 1-line edit, hierarchical", lsp, reference)
    report("  of which until the reply's first byte (the client's decoding excluded)", first_byte, reference)
    p50, p95 = percentile(lsp, 0.5), percentile(lsp, 0.95)
    print("goals, as measured in this run:")
    print(f"  1-char edit re-parse <= 2x bare tree-sitter: {verdict(ours / raw <= 2)} ({ours / raw:.2f}x)")
    print(
        f"  hierarchical documentSymbol over LSP stdio after a 1-line edit, p95 <= {SYMBOL_GOAL_S * 1e3:.0f} ms: "
        f"{verdict(p95 <= SYMBOL_GOAL_S)} (p95 {p95 * 1e3:.2f} ms, p50 {p50 * 1e3:.2f} ms, "
        f"{SYMBOL_ROUNDS} round trips from the client, its JSON decoding included)"
    )


if __name__ == "__main__":
    main()
