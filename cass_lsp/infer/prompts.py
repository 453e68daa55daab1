"""The CASS prompt formats, ChatML rendering, and extraction of the fenced answer.

The CASS models were fine-tuned on one user turn of fixed wording around the code; they answer
best when they see those words again, so the templates below are the training text byte for byte
and the code is inserted as given. A model answers with prose around one fenced block
(```amd for source, ```hipasm for assembly); :func:`extract_answer` finds it, also in a reply cut
short by ``max_tokens`` or a cancel.
"""

from __future__ import annotations

import re
from typing import NamedTuple

import msgspec

from cass_lsp.infer.backend import Message

PLACEHOLDER = "{code}"
"""Where a template takes the code. Replaced literally (not ``str.format``), so a template may hold
other braces and the code's own braces never matter."""
SOURCE_TEMPLATE = "Convert the following CUDA code to AMD GPU code:\n```cuda\n{code}\n```"
ASSEMBLY_TEMPLATE = "Convert the following CUDA device assembly code to HIP device assembly:\n```cudaasm\n{code}\n```"
SOURCE_FENCE = "amd"
ASSEMBLY_FENCE = "hipasm"
SOURCE_FALLBACK_FENCES = ("hip", "cpp", "c++", "")
"""What a source answer that misses the ```amd fence uses instead, in order of preference ("": a
bare ``` block). ``cuda`` is not among them: a block so marked is the model echoing its input."""

QWEN_DEFAULT_SYSTEM = "You are Qwen, created by Alibaba Cloud. You are a helpful assistant."
"""Qwen2.5's chat template inserts this system turn when the messages have none. The CASS models
are Qwen2.5-Coder fine-tunes trained through that template, so their prompts must carry it too."""


class Answer(msgspec.Struct, frozen=True):
    code: str
    """The block's lines without its fences, joined by "\\n" (no final newline); for an open block,
    what came before the cut."""
    fence: str
    """The info string of the block used: the fence asked for, a fallback, or "" (a bare ```)."""
    complete: bool
    """The block was closed; False when the reply stopped inside it (max tokens, cancel, timeout)."""
    prose: str
    """The reply outside the block, stripped (the model's explanation, for logs)."""


def source_prompt(code: str, template: str | None = None) -> list[Message]:
    """The CASS user turn asking to port CUDA source ``code``; ``template`` overrides the wording."""
    return [Message("user", _fill(template or SOURCE_TEMPLATE, code))]


def assembly_prompt(sass: str, template: str | None = None) -> list[Message]:
    """The CASS user turn asking to port device assembly ``sass``; ``template`` overrides the wording."""
    return [Message("user", _fill(template or ASSEMBLY_TEMPLATE, sass))]


def _fill(template: str, code: str) -> str:
    if PLACEHOLDER not in template:
        # Without it the model would be asked to convert nothing, and answer anyway.
        raise ValueError(f"the prompt template has no {PLACEHOLDER} placeholder: {template!r}")
    return template.replace(PLACEHOLDER, code)


def render_chatml(messages: list[Message]) -> str:
    """``messages`` as Qwen2.5's chat template renders them, ready for the assistant's answer.

    Each turn is ``<|im_start|>{role}\\n{content}<|im_end|>\\n``; a first turn that is not a system
    turn gets :data:`QWEN_DEFAULT_SYSTEM` before it, as the template does (tools aside).
    """
    turns = list(messages)
    if not turns or turns[0].role != "system":
        turns.insert(0, Message("system", QWEN_DEFAULT_SYSTEM))
    rendered = "".join(f"<|im_start|>{turn.role}\n{turn.content}<|im_end|>\n" for turn in turns)
    return rendered + "<|im_start|>assistant\n"


# A fence line: three or more backticks, optional indentation and trailing blanks. An opening fence
# may carry an info string (its first word names the language); a closing one carries nothing.
_OPENING = re.compile(r"[ \t]*(`{3,})[ \t]*([^`\s]*)[^`]*")
_CLOSING = re.compile(r"[ \t]*(`{3,})[ \t]*")
# The start of a closing fence, left as the last line of a reply cut in the middle of it.
_PARTIAL_CLOSING = re.compile(r"[ \t]*`{1,2}")


class _Block(NamedTuple):
    fence: str
    opening: int
    """Index of the opening fence's line."""
    end: int
    """Index of the closing fence's line; the number of lines for an open block."""
    closed: bool


def extract_answer(text: str, fence: str) -> Answer | None:
    """The first ```{fence} block of a model's reply ``text``; None when the reply has no block.

    For source answers (``fence`` is ``amd``) the first block of each of
    :data:`SOURCE_FALLBACK_FENCES` is taken instead, in that order, when there is no ``amd`` one.
    Fences follow CommonMark: only a line that holds nothing but backticks (at least as many as
    the opening fence's) closes a block, so backticks inside a line of code (a string literal
    ``"```"``) are code. A string literal spanning lines of which one is exactly ``` would still
    end the block early; CUDA code does not hold one in practice.
    """
    lines = text.replace("\r\n", "\n").split("\n")
    blocks = _blocks(lines)
    wanted = (fence, *SOURCE_FALLBACK_FENCES) if fence == SOURCE_FENCE else (fence,)
    for name in wanted:
        block = next((block for block in blocks if block.fence == name), None)
        if block is not None:
            return _answer(lines, block)
    return None


def _blocks(lines: list[str]) -> list[_Block]:
    blocks: list[_Block] = []
    index = 0
    while index < len(lines):
        opening = _OPENING.fullmatch(lines[index])
        if opening is None:
            index += 1
            continue
        width = len(opening[1])
        end = index + 1
        while end < len(lines) and not _closes(lines[end], width):
            end += 1
        blocks.append(_Block(opening[2].lower(), index, end, end < len(lines)))
        index = end + 1
    return blocks


def _closes(line: str, width: int) -> bool:
    closing = _CLOSING.fullmatch(line)
    return closing is not None and len(closing[1]) >= width


def _answer(lines: list[str], block: _Block) -> Answer:
    body = lines[block.opening + 1 : block.end]
    if not block.closed and body and _PARTIAL_CLOSING.fullmatch(body[-1]):
        # The reply stopped one or two backticks into the closing fence: not code.
        body.pop()
    outside = lines[: block.opening] + lines[block.end + 1 :]
    return Answer("\n".join(body), block.fence, block.closed, "\n".join(outside).strip())
