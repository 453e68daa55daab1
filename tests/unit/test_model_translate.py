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


def test_the_use_case_splits_a_long_file_and_the_rules_take_the_rest() -> None:
    """services.model, the editor's and the CLI's path: a file too long for the context goes
    function by function, each with its declarations; the rules translate outside the functions."""
    from cass_lsp.services import model as model_service
    from cass_lsp.services.settings import resolve_cli
    from cass_lsp.syntax.document import CudaDocument
    from cass_lsp.translate import jobs as translate_jobs

    host = "".join(f"// host note {i}\n" for i in range(40)) + "int main() { cudaDeviceSynchronize(); }\n"
    doc = CudaDocument("file:///long.cu", SOURCE + host)
    resolved = resolve_cli(target={"arch": "gfx1100", "rocm": "5.2"})
    regions = model_service.regions(doc, 0, len(doc.source), "file", 700, "raise it")
    assert isinstance(regions, list)
    assert [r.function for r in regions] == ["helper", "scale"] and not any(r.whole for r in regions)
    assert "#define N 256" in regions[1].context and regions[0].context == ""
    hip_kernel = KERNEL.replace("threadIdx.x", "hipThreadIdx_x")
    backend = Scripted(f"```amd\n__device__ float helper(float v) {{ return v * 3; }}\n{hip_kernel}\n```")
    done = [
        (r, model_service.translate(backend, r, resolved, GenerationParams(), lambda _: None, CancelToken()))
        for r in regions
    ]
    assert f"{regions[1].context}\n{KERNEL}" in backend.sent[0].content  # the last prompt: the kernel's
    outcome = translate_jobs.translate_text(resolved, doc.text)
    merged = model_service.merged(doc.source, done, model_service.rules_outside(outcome.edits, regions)).decode()
    assert "return v * 3;" in merged and hip_kernel in merged  # the model's functions
    assert merged.startswith("#include <hip/hip_runtime.h>") and "hipDeviceSynchronize();" in merged  # the rules'
    assert "#define N 256\n#define UNUSED 1" in merged  # the declarations stay once, where they were
    too_long = model_service.regions(doc, 0, len(doc.source), "file", 400, "raise it")
    assert isinstance(too_long, str) and too_long.endswith("raise it or translate it kernel by kernel")
