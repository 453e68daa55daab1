"""RDNA3 predicted from SASS by a CASS assembly model, next to the compiled truth.

The kernel's SASS (from the real nvcc/nvdisasm, for the architecture the model was trained on)
goes to the model with the CASS assembly prompt; the ```hipasm answer is the prediction. When the
AMD toolchain compiled the same kernel, the agreement score compares the two opcode sequences
(difflib's ratio: 1.0 is the same sequence); without it the prediction stands alone, unverified.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable

import msgspec

from cass_lsp.asm.listing import Function, Listing, find_functions
from cass_lsp.core.cancel import CancelToken
from cass_lsp.infer.backend import Backend, GenerationParams

_LABEL_OR_DIRECTIVE = re.compile(r"^\s*(?:[.\w$]+:|\.|;|//|#)")


class Prediction(msgspec.Struct, rename="camel", frozen=True):
    kernel: str
    model: str
    source_target: str
    """The NVIDIA architecture whose SASS the model read."""
    text: str
    """The predicted assembly, as the model wrote it."""
    complete: bool
    agreement: float | None
    """Opcode-sequence similarity with the compiled listing (0..1); None when unverified."""
    verified_against: str | None
    """The AMD target of the compiled listing compared with, if any."""
    label: str
    """"predicted", or "predicted, unverified" when no compiled listing could be compared."""


def sass_text(function: Function) -> str:
    """The function's SASS in the `OPCODE operands ;` form nvdisasm prints, one per line."""
    return "\n".join(f"        {ins.text.strip()}" for ins in function.instructions)


def opcodes_of(assembly: str) -> list[str]:
    """Opcodes of an assembly text: the first word of each line that is not a label, a directive or
    a comment; predicates (`@P0`) are skipped."""
    found = []
    for line in assembly.splitlines():
        if not line.strip() or _LABEL_OR_DIRECTIVE.match(line):
            continue
        words = [w for w in re.split(r"[\s{}]+", line.strip()) if w and not w.startswith("@")]
        if words:
            found.append(words[0].rstrip(";").lower())
    return found


def agreement(predicted: str, compiled: Function) -> float:
    truth = [ins.opcode.lower() for ins in compiled.instructions]
    return round(difflib.SequenceMatcher(None, opcodes_of(predicted), truth, autojunk=False).ratio(), 3)


def kernel_function(listing: Listing, kernel: str) -> Function | None:
    found = find_functions(listing, kernel)
    preferred = [f for f in found if f.kind == "kernel"] or found
    return preferred[0] if preferred else None


def predict(
    backend: Backend,
    sass: Listing,
    kernel: str,
    compiled: Listing | None,
    params: GenerationParams,
    on_text: Callable[[str], None],
    token: CancelToken,
    *,
    template: str | None = None,
    fence: str = "hipasm",
) -> Prediction | str:
    """The prediction for ``kernel``, or why there is none (a message for the user)."""
    from cass_lsp.infer.prompts import assembly_prompt, extract_answer

    function = kernel_function(sass, kernel)
    if function is None:
        return f"{kernel} is not in the {sass.target} listing"
    generation = backend.generate(assembly_prompt(sass_text(function), template), params, on_text, token)
    answer = extract_answer(generation.text, fence)
    if answer is None or not answer.code.strip():
        return f"{backend.label} answered with no ```{fence} block ({generation.finish_reason})"
    truth = kernel_function(compiled, kernel) if compiled is not None else None
    return Prediction(
        label="predicted" if truth is not None else "predicted, unverified",
        kernel=kernel,
        model=generation.model,
        source_target=sass.target,
        text=answer.code,
        complete=answer.complete and generation.finish_reason == "stop",
        agreement=agreement(answer.code, truth) if truth is not None else None,
        verified_against=compiled.target if truth is not None and compiled is not None else None,
    )
