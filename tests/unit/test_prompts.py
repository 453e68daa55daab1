"""The CASS prompt texts, ChatML rendering, and extraction of the fenced answer."""

from __future__ import annotations

import pytest

from cass_lsp.infer.backend import Message
from cass_lsp.infer.prompts import (
    ASSEMBLY_FENCE,
    SOURCE_FENCE,
    Answer,
    assembly_prompt,
    extract_answer,
    render_chatml,
    source_prompt,
)

KERNEL = "__global__ void add(float* a) { a[threadIdx.x] += 1.0f; }"
PORTED = "#include <hip/hip_runtime.h>\n__global__ void add(float* a) { a[threadIdx.x] += 1.0f; }"

# ------------------------------------------------------------------------------------- prompts


def test_source_prompt_is_the_cass_user_turn_byte_for_byte() -> None:
    expected = "Convert the following CUDA code to AMD GPU code:\n```cuda\n" + KERNEL + "\n```"
    assert source_prompt(KERNEL) == [Message("user", expected)]


def test_assembly_prompt_is_the_cass_user_turn_byte_for_byte() -> None:
    sass = "        /*0000*/                   MOV R1, c[0x0][0x28] ;"
    expected = "Convert the following CUDA device assembly code to HIP device assembly:\n```cudaasm\n" + sass + "\n```"
    assert assembly_prompt(sass) == [Message("user", expected)]


def test_a_template_overrides_the_wording_and_braces_are_never_formatted() -> None:
    template = "Port this {not a field}:\n{code}\nend"
    code = "if (x) { y = {0}; } // {code}"
    assert source_prompt(code, template) == [Message("user", f"Port this {{not a field}}:\n{code}\nend")]
    assert assembly_prompt(code, template)[0].content == f"Port this {{not a field}}:\n{code}\nend"


def test_a_template_without_the_placeholder_is_refused() -> None:
    with pytest.raises(ValueError, match="placeholder"):
        source_prompt(KERNEL, "Convert this CUDA code")


def test_chatml_adds_qwen25s_default_system_turn() -> None:
    assert render_chatml([Message("user", "hi")]) == (
        "<|im_start|>system\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.<|im_end|>\n"
        "<|im_start|>user\nhi<|im_end|>\n"
        "<|im_start|>assistant\n"
    )


def test_chatml_keeps_a_given_system_turn_and_every_turn_in_order() -> None:
    messages = [Message("system", "S"), Message("user", "U"), Message("assistant", "A"), Message("user", "V")]
    assert render_chatml(messages) == (
        "<|im_start|>system\nS<|im_end|>\n<|im_start|>user\nU<|im_end|>\n"
        "<|im_start|>assistant\nA<|im_end|>\n<|im_start|>user\nV<|im_end|>\n<|im_start|>assistant\n"
    )


# ---------------------------------------------------------------------------------- extraction


def test_a_closed_block_with_prose_before_and_after() -> None:
    text = f"Here is the HIP version:\n```amd\n{PORTED}\n```\nIt uses hipcc."
    assert extract_answer(text, SOURCE_FENCE) == Answer(PORTED, "amd", True, "Here is the HIP version:\nIt uses hipcc.")


def test_an_open_block_returns_what_came_marked_incomplete() -> None:
    answer = extract_answer(f"```amd\n{PORTED}", SOURCE_FENCE)
    assert answer == Answer(PORTED, "amd", False, "")


@pytest.mark.parametrize("cut", ["`", "``"])
def test_a_reply_cut_inside_the_closing_fence_leaves_no_backticks_in_the_code(cut: str) -> None:
    answer = extract_answer(f"```amd\n{PORTED}\n{cut}", SOURCE_FENCE)
    assert answer is not None
    assert (answer.code, answer.complete) == (PORTED, False)


def test_crlf_line_ends_and_fences_with_trailing_blanks() -> None:
    text = f"Sure.\r\n```amd   \r\n{PORTED.replace(chr(10), chr(13) + chr(10))}\r\n```  \r\nDone.\r\n"
    assert extract_answer(text, SOURCE_FENCE) == Answer(PORTED, "amd", True, "Sure.\nDone.")


@pytest.mark.parametrize(
    ("blocks", "found"),
    [
        (["cuda", "", "c++", "cpp", "hip", "amd"], "amd"),
        (["cuda", "", "c++", "cpp", "hip"], "hip"),
        (["", "c++", "cpp"], "cpp"),
        (["", "c++"], "c++"),
        (["cuda", ""], ""),
    ],
)
def test_source_answers_fall_back_by_preference_not_position(blocks: list[str], found: str) -> None:
    text = "\n".join(f"```{fence}\ncode for {fence or 'bare'}\n```" for fence in blocks)
    answer = extract_answer(text, SOURCE_FENCE)
    assert answer is not None
    assert (answer.fence, answer.code) == (found, f"code for {found or 'bare'}")


def test_an_echoed_cuda_block_is_no_answer() -> None:
    assert extract_answer(f"```cuda\n{KERNEL}\n```", SOURCE_FENCE) is None
    assert extract_answer("no code at all", SOURCE_FENCE) is None


def test_assembly_answers_take_only_their_fence() -> None:
    text = "```\nbare\n```\n```hipasm\ns_endpgm\n```"
    assert extract_answer(text, ASSEMBLY_FENCE) == Answer("s_endpgm", "hipasm", True, "```\nbare\n```")
    assert extract_answer("```\nbare\n```", ASSEMBLY_FENCE) is None


def test_the_first_block_of_the_fence_wins_and_the_rest_is_prose() -> None:
    text = "```amd\nfirst\n```\nor:\n```amd\nsecond\n```"
    assert extract_answer(text, SOURCE_FENCE) == Answer("first", "amd", True, "or:\n```amd\nsecond\n```")


def test_backticks_inside_a_line_of_code_do_not_close_the_block() -> None:
    code = 'printf("```\\n");\nconst char* s = "``` not a fence ```";'
    assert extract_answer(f"```amd\n{code}\n```", SOURCE_FENCE) == Answer(code, "amd", True, "")


def test_a_longer_opening_fence_needs_a_closing_fence_as_long() -> None:
    code = "// a doc comment quoting markdown:\n```\nexample\n```"
    assert extract_answer(f"````amd\n{code}\n````", SOURCE_FENCE) == Answer(code, "amd", True, "")


def test_fence_names_are_matched_case_insensitively() -> None:
    answer = extract_answer("```AMD\nx\n```", SOURCE_FENCE)
    assert answer is not None
    assert (answer.fence, answer.code) == ("amd", "x")
