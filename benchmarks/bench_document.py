"""Document model costs on a 5k-line CUDA file, as ratios against bare tree-sitter in the same run.

  .venv/bin/python benchmarks/bench_document.py

1. incremental re-parse after a 1-character edit: CudaDocument.apply_changes vs tree.edit + parse
   with the old tree (goal: ratio <= 2)
2. documentSymbol: in-process outline after an edit, and the LSP round trip over stdio
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._corpus import cuda_source
from cass_lsp import syntax
from cass_lsp.document import CudaDocument, TextChange
from cass_lsp.server.symbols import document_symbols

ROUNDS = 200


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


def bench_symbols(text: str) -> list[float]:
    doc = CudaDocument("file:///bench.cu", text)
    samples = []
    for round_ in range(50):
        doc.apply_changes([TextChange(" ", ((round_ % 100, 0), (round_ % 100, 0)))])
        start = time.perf_counter()
        document_symbols(doc)
        samples.append(time.perf_counter() - start)
    return samples


async def bench_lsp_symbols(text: str) -> list[float]:
    from lsprotocol import types
    from pygls.lsp.client import LanguageClient

    client = LanguageClient("bench", "0")
    await client.start_io(sys.executable, "-m", "cass_lsp", "--stdio")
    # background work (translation diagnostics, listings) off: this measures the outline alone
    quiet = {"diagnostics": {"enabled": False}, "asm": {"compileOnOpen": False}}
    await client.initialize_async(
        types.InitializeParams(capabilities=types.ClientCapabilities(), initialization_options=quiet)
    )
    client.initialized(types.InitializedParams())
    uri = "file:///bench.cu"
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(uri, "cuda", 1, text))
    )
    samples = []
    for round_ in range(50):
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=round_ + 2),
                content_changes=[
                    types.TextDocumentContentChangePartial(
                        range=types.Range(types.Position(round_ % 100, 0), types.Position(round_ % 100, 0)), text=" "
                    )
                ],
            )
        )
        start = time.perf_counter()
        await client.text_document_document_symbol_async(
            types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri))
        )
        samples.append(time.perf_counter() - start)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return samples


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
    print(
        f"documentSymbol in-process after an edit: p50 {percentile(symbols, 0.5) * 1e3:.2f} ms, "
        f"p95 {percentile(symbols, 0.95) * 1e3:.2f} ms ({percentile(symbols, 0.5) / statistics.median(full):.2f}x a full parse)"
    )
    lsp = asyncio.run(bench_lsp_symbols(text))
    print(
        f"documentSymbol over LSP stdio after an edit: p50 {percentile(lsp, 0.5) * 1e3:.2f} ms, p95 {percentile(lsp, 0.95) * 1e3:.2f} ms"
    )


if __name__ == "__main__":
    main()
