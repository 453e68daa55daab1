"""Region translation through a model: what the model is sent and what is taken from its answer.

The whole path with a real GGUF runs in tests/lsp/test_model_lsp.py; here a backend that answers
from a script shows exactly which text goes into the prompt."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from cass_lsp.core.cancel import CancelToken
from cass_lsp.infer.backend import Generation, GenerationParams, Message
from cass_lsp.syntax import parsing as syntax
from cass_lsp.translate.carry import declarations_for, function_in
from cass_lsp.translate.model import NoAnswer, translate_region
from cass_lsp.translate.rules import engine_settings

SOURCE = """#include <cuda_runtime.h>
#define N 256
#define UNUSED 1
typedef float real;
struct Pair { float a, b; };
using index_t = int;
__constant__ float coef[N];
static const int M = 4;
__device__ float helper(float v) { return v * 2; }
__global__ void scale(Pair* p, real* out) {
  index_t i = threadIdx.x;
  out[i] = coef[i % N] * p[i].a + M + helper(p[i].b);
}
"""
KERNEL = SOURCE[SOURCE.index("__global__") :].rstrip("\n")


class Scripted:
    """Answers with a fixed text and keeps the messages it was sent."""

    label = "scripted"
    model_name = "scripted"

    def __init__(self, answer: str) -> None:
        self.answer = answer
        self.sent: list[Message] = []

    def generate(
        self, messages: list[Message], params: GenerationParams, on_text: Callable[[str], None], token: CancelToken
    ) -> Generation:
        self.sent = messages
        on_text(self.answer)
        return Generation(self.answer, "stop", 1, 0.0, self.label)

    def close(self) -> None:
        pass


def test_the_declarations_a_kernel_names_are_carried_in_file_order() -> None:
    data = SOURCE.encode()
    start = data.index(b"__global__")
    carried = declarations_for(data, syntax.parse(data), start, len(data))
    assert carried == (
        "#define N 256\ntypedef float real;\nstruct Pair { float a, b; };\nusing index_t = int;\n"
        "__constant__ float coef[N];\nstatic const int M = 4;\n"
    )


def test_the_prompt_holds_the_context_and_only_the_function_comes_back() -> None:
    data = SOURCE.encode()
    start = data.index(b"__global__")
    context = declarations_for(data, syntax.parse(data), start, len(data))
    hip_kernel = KERNEL.replace("threadIdx.x", "hipThreadIdx_x")
    backend = Scripted(f"```amd\n#include <hip/hip_runtime.h>\n{context}{hip_kernel}\n```")
    settings = engine_settings("gfx1100", "5.2", "chevron", False, False)
    result = translate_region(
        backend, KERNEL, settings, GenerationParams(), lambda _: None, CancelToken(), context=context, function="scale"
    )
    (message,) = backend.sent
    assert f"```cuda\n{context}\n{KERNEL}\n```" in message.content
    assert result.code == hip_kernel  # the echoed declarations and include stay out


def test_an_answer_without_the_function_is_refused_when_context_was_sent() -> None:
    backend = Scripted("```amd\n#define N 256\n```")
    settings = engine_settings("gfx1100", "5.2", "chevron", False, False)
    with pytest.raises(NoAnswer, match="no definition of scale"):
        translate_region(
            backend, KERNEL, settings, GenerationParams(), lambda _: None, CancelToken(), context="#define N 256\n",
            function="scale",
        )


def test_function_in_finds_the_definition_by_name() -> None:
    assert function_in("int x;\n__global__ void k() {}\n", "k") == "__global__ void k() {}"
    assert function_in("int x;\n", "k") is None
