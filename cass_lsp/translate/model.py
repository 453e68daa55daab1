"""Region translation through a CASS model: prompt, stream, extract the fenced answer, then the
rules as a post-pass on CUDA names the model left.

Pure and synchronous like the rest of the engine: the backend does the generating, the caller
(a job of kind ``generate``) runs this off the event loop. The model sees only the region's code
(and, when the caller passes them, the file-level declarations it names: :mod:`.carry`), and its
answer may take about twice as many tokens (:func:`answer_budget`). The answer is untrusted text: it is never executed or evaluated, only inserted where the user
confirms it, and compiled before it is trusted.
"""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from cass_lsp.core.cancel import CancelToken
from cass_lsp.infer.backend import Backend, Generation, GenerationParams
from cass_lsp.translate import rules
from cass_lsp.translate.findings import Finding

# Code runs 3 to 4 bytes a token in the CASS models' vocabulary (Qwen2.5's); counting 2 errs toward
# more tokens, so a region judged to fit does and an answer's budget is not short. The backend
# checks the real prompt against the real context before generating (a clear error, not a crash).
_BYTES_PER_TOKEN = 2
PROMPT_TOKENS = 64
"""The chat template and the CASS instruction around the code."""
ANSWER_MARGIN = 256
"""Answer tokens beyond the code's own: the fence, an include, a line of prose."""


def estimated_tokens(text: str) -> int:
    return -(-len(text.encode("utf-8", "surrogatepass")) // _BYTES_PER_TOKEN)


def question_budget(n_ctx: int) -> int:
    """The most tokens a question (a region and the declarations carried with it) may have: the
    prompt and an answer as long as the question must both fit in the context."""
    return (n_ctx - PROMPT_TOKENS - ANSWER_MARGIN) // 2


def answer_budget(question: str, max_tokens: int) -> int:
    """About twice the question's tokens plus a margin, at most ``max_tokens``: a translation is
    about as long as its original, and a model that rambles stops there instead of at maxTokens
    (4,096 tokens for a 10-line kernel: minutes on 2 cores, an hour for a 7B model on a laptop)."""
    return min(max_tokens, 2 * estimated_tokens(question) + ANSWER_MARGIN)


class ModelTranslation(msgspec.Struct, frozen=True):
    code: str
    """The region's translation: the model's answer after the rules' post-pass."""
    complete: bool
    """False when the answer's code block was cut off (its token budget, cancel, timeout)."""
    generation: Generation
    post_pass_edits: int
    """CUDA names the model left that the rules translated."""
    findings: list[Finding]
    """What the rules still find in the answer (offsets into ``code``)."""


class NoAnswer(Exception):
    """The model's reply holds no code block; the message quotes the start of what it said."""


def translate_region(
    backend: Backend,
    code: str,
    settings: rules.Settings,
    params: GenerationParams,
    on_text: Callable[[str], None],
    token: CancelToken,
    *,
    template: str | None = None,
    fence: str = "amd",
    whole_file: bool = False,
    context: str = "",
    function: str | None = None,
) -> ModelTranslation:
    """``template``/``fence``: the prompt and answer fence; by default the manifest's for a known
    CASS model, else the CASS source prompt and ```amd. ``whole_file``: the region is the file, so
    the post-pass may add the HIP runtime include; for a part of a file it only renames (an
    include in the middle of a file would be wrong). ``context``: declarations the region needs
    (:mod:`.carry`), sent in front of it; ``function``: the region is this function, and only its
    definition is taken from the answer."""
    from cass_lsp.infer.manifest import find
    from cass_lsp.infer.prompts import extract_answer, source_prompt

    spec = find(backend.model_name)  # a known CASS model: its own prompt and answer fence
    if spec is not None and template is None:
        template, fence = spec.prompt, spec.answer_fence
    question = f"{context}\n{code}" if context else code
    params = msgspec.structs.replace(params, max_tokens=answer_budget(question, params.max_tokens))
    generation = backend.generate(source_prompt(question, template), params, on_text, token)
    answer = extract_answer(generation.text, fence)
    if answer is None or not answer.code.strip():
        said = generation.text.strip()[:200] or "nothing"
        raise NoAnswer(f"{backend.label} answered with no ```{fence} code block ({generation.finish_reason}): {said!r}")
    translated = answer.code
    if function is not None and answer.complete:
        from cass_lsp.translate.carry import function_in

        own = function_in(translated, function)
        if own is None and context:
            raise NoAnswer(f"{backend.label}'s answer has no definition of {function}")
        translated = own or translated
    data = translated.encode("utf-8", "surrogateescape")
    outcome = rules.run(data, settings)
    if not whole_file:
        kept = [e for e in outcome.edits if not (e.start == e.end and e.text.lstrip().startswith("#include"))]
        outcome = outcome._replace(edits=kept)
    result = rules.result_of(data, outcome)
    complete = answer.complete and generation.finish_reason == "stop"
    return ModelTranslation(result.text, complete, generation, len(result.edits), result.findings)
