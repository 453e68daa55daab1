"""Issue 19's model defects through the real llama-cpp-python in its worker process, on the tiny
GGUF the project generates: a model that rambles stops at the region's budget (it ran to the fixed
maxTokens, 4,096), and a prompt over the context is a clear error (it was llama-cpp-python's
ValueError); the budgets themselves are tested in tests/unit/test_model_budget.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from cass_lsp.core.cancel import CancelToken
from cass_lsp.infer.backend import GenerationParams, Message, ModelError
from cass_lsp.infer.process import ProcessBackend
from cass_lsp.infer.tiny_model import write_tiny_model
from cass_lsp.translate.model import answer_budget, translate_region
from tests.unit.test_model_budget import KERNEL, SETTINGS


@pytest.fixture(scope="module")
def endless(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("models") / "endless.gguf"
    write_tiny_model(path, f"```amd\n{KERNEL}\n```", endless=True)
    return path


@pytest.fixture(autouse=True)
def passive_openmp(monkeypatch: pytest.MonkeyPatch) -> None:
    # OpenMP workers that spin while waiting slow a busy small machine 5-10x
    monkeypatch.setenv("OMP_WAIT_POLICY", "PASSIVE")


def test_a_model_that_rambles_stops_at_the_region_budget(endless: Path) -> None:
    backend = ProcessBackend(str(endless), name="endless", n_threads=1, n_ctx=8192, idle_unload_s=0)
    try:
        translated = translate_region(
            backend, KERNEL, SETTINGS, GenerationParams(max_tokens=4096), lambda _: None, CancelToken()
        )
    finally:
        backend.close()
    generation = translated.generation
    assert generation.finish_reason == "length" and not translated.complete
    assert generation.tokens <= answer_budget(KERNEL, 4096) < 4096 / 4


def test_a_prompt_longer_than_the_context_is_a_clear_error(endless: Path) -> None:
    backend = ProcessBackend(str(endless), name="endless", n_threads=1, n_ctx=256, idle_unload_s=0)
    long_region = KERNEL + "\n" + "// a note\n" * 100
    try:
        with pytest.raises(
            ModelError, match=r"too long for the model's context: the prompt is \d+ tokens, the context 256"
        ):
            translate_region(backend, long_region, SETTINGS, GenerationParams(), lambda _: None, CancelToken())
        # the model stays usable for a region that fits
        short = backend.generate([Message("user", "hi")], GenerationParams(max_tokens=3), lambda _: None, CancelToken())
        assert short.tokens == 3
    finally:
        backend.close()
