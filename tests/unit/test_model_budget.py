"""Regression tests for issue 19's model defects: a prompt at or over the context raised
llama-cpp-python's ValueError (an internal error in the server), a model that rambles ran to the
fixed maxTokens (4,096: minutes for a 10-line kernel), and "all cores but one" gave a 2-core
machine one thread. The real llama-cpp-python runs the tiny GGUF the project generates."""

from __future__ import annotations

import os
from collections.abc import Callable

import pytest

from cass_lsp.core.cancel import CancelToken
from cass_lsp.infer.backend import Generation, GenerationParams, Message
from cass_lsp.infer.llama import default_threads
from cass_lsp.translate.model import ANSWER_MARGIN, answer_budget, question_budget, translate_region
from cass_lsp.translate.rules import engine_settings

KERNEL = """__global__ void saxpy(int n, float a, const float* x, float* y) {
  // y = a * x + y over n elements, one per thread
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) {
    return;
  }
  float xi = x[i];
  float yi = y[i];
  y[i] = a * xi + yi;
}"""
SETTINGS = engine_settings("gfx1100", "5.2", "chevron", False, False)


class Recording:
    """Keeps the parameters it was called with and answers a fixed block."""

    label = model_name = "recording"

    def __init__(self) -> None:
        self.params: GenerationParams | None = None

    def generate(
        self, messages: list[Message], params: GenerationParams, on_text: Callable[[str], None], token: CancelToken
    ) -> Generation:
        self.params = params
        return Generation(f"```amd\n{KERNEL}\n```", "stop", 1, 0.0, self.label)

    def close(self) -> None:
        pass


def test_the_answer_budget_follows_the_region() -> None:
    backend = Recording()
    translate_region(backend, KERNEL, SETTINGS, GenerationParams(max_tokens=4096), lambda _: None, CancelToken())
    assert backend.params is not None
    size = len(KERNEL.encode())
    # about twice the region's tokens (counted at 2 bytes a token, more than code takes) and a margin
    assert backend.params.max_tokens == 2 * -(-size // 2) + ANSWER_MARGIN
    assert backend.params.max_tokens < 4096 / 4
    translate_region(backend, KERNEL, SETTINGS, GenerationParams(max_tokens=100), lambda _: None, CancelToken())
    assert backend.params.max_tokens == 100  # maxTokens still caps it


def test_the_carried_declarations_count_in_the_budget() -> None:
    context = "__constant__ float table[] = {" + ", ".join(["1.0f"] * 500) + "};\n"
    assert answer_budget(f"{context}\n{KERNEL}", 100_000) > answer_budget(KERNEL, 100_000) + len(context) // 2
    assert question_budget(8192) == (8192 - 64 - ANSWER_MARGIN) // 2


@pytest.mark.parametrize(("cores", "threads"), [(1, 1), (2, 2), (3, 2), (4, 3), (16, 15)])
def test_default_threads_leave_a_core_only_where_two_remain(
    monkeypatch: pytest.MonkeyPatch, cores: int, threads: int
) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(cores)))
    monkeypatch.setattr(os, "cpu_count", lambda: cores)
    assert default_threads() == threads
