"""The tiny test model: a valid qwen2 GGUF that answers every prompt with a fixed text.

It loads through llama-cpp-python like a converted Qwen2.5-Coder CASS model (architecture qwen2,
byte-level BPE "gpt2" tokenizer with the qwen2 pre-tokenizer, ChatML special tokens, a Qwen-style
chat template, eos ``<|im_end|>``), so tests can run the whole model path offline and exactly.

How the weights make greedy decoding emit the answer: the answer is cut into pieces that each get a
token of their own, chained k -> k+1. Every layer's weights are zero, so the residual stream stays
the current token's embedding; embeddings are one-hot "states" (state 0 for every token outside the
chain, state k+1 for the chain's k-th piece) and the output matrix maps state k to the chain's k-th
piece, and the last piece to ``<|im_end|>``. The second best successor of the last piece is the
first one, so with ``<|im_end|>`` banned the answer repeats forever; an ``endless`` model repeats
it forever without a ban (max_tokens, cancel and timeout tests).

Usage: ``python -m cass_lsp.infer.tiny_model OUT.gguf [--answer-file F] [--endless]``. Needs numpy and the
``gguf`` package (dev dependencies), imported only when a model is written.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from pathlib import Path

NAME = "cass-tiny-test"
DEFAULT_ANSWER = """\
```amd
#include <hip/hip_runtime.h>

__global__ void saxpy(int n, float a, const float *x, float *y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

hipError_t run_saxpy(int n, float a, const float *d_x, float *d_y) {
    saxpy<<<(n + 255) / 256, 256>>>(n, a, d_x, d_y);
    return hipDeviceSynchronize();
}
```"""

CHAT_TEMPLATE = "\n".join(
    (
        "{%- if messages[0]['role'] == 'system' %}",
        "{{- '<|im_start|>system\\n' + messages[0]['content'] + '<|im_end|>\\n' }}",
        "{%- else %}",
        "{{- '<|im_start|>system\\nYou are a helpful assistant.<|im_end|>\\n' }}",
        "{%- endif %}",
        "{%- for message in messages %}",
        "{%- if not (message['role'] == 'system' and loop.first) %}",
        "{{- '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>\\n' }}",
        "{%- endif %}",
        "{%- endfor %}",
        "{%- if add_generation_prompt %}{{- '<|im_start|>assistant\\n' }}{%- endif %}",
    )
)
"""The structure of Qwen2.5's template (default system turn, ChatML turns), without tool calls."""

ENDOFTEXT, IM_START, IM_END = "<|endoftext|>", "<|im_start|>", "<|im_end|>"
_CONTEXT_LENGTH = 4096
_HEAD_DIM = 64
_FEED_FORWARD = 64
_LOGIT = 25.0
"""The chain successor's logit: far above every other token's 0, so even sampling follows it."""
_LOOP_LOGIT = 15.0
"""The first piece's logit after the last one: second to ``<|im_end|>``, first when it is banned."""
_MAX_PIECE_BYTES = 32
"""llama-cpp-python 0.3.36's detokenize() silently drops a token whose text is longer."""
_CHUNK = re.compile(r"\s{0,6}\S{1,6}|\s{1,6}")


def _byte_chars() -> list[str]:
    """GPT-2's byte-level BPE alphabet: the printable character standing for each byte 0..255."""
    printable = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
    chars: list[str] = []
    shifted = 0
    for byte in range(256):
        if byte in printable:
            chars.append(chr(byte))
        else:
            chars.append(chr(256 + shifted))
            shifted += 1
    return chars


def _token_text(text: str, byte_chars: list[str]) -> str:
    return "".join(byte_chars[b] for b in text.encode("utf-8"))


def split_answer(answer: str, taken: set[str]) -> list[str]:
    """Cut ``answer`` into short pieces, none equal to another or to a text in ``taken``.

    Each piece becomes one token and one step of the chain, so a piece may occur only once: a
    repeated chunk is lengthened one character at a time until it is new.
    """
    pieces: list[str] = []
    seen = set(taken)
    start = 0
    while start < len(answer):
        match = _CHUNK.match(answer, start)
        end = match.end() if match else start + 1
        while answer[start:end] in seen and end < len(answer):
            end += 1
        piece = answer[start:end]
        if piece in seen:  # the answer's tail repeats an earlier piece: it joins the piece before it
            if not pieces or pieces[-1] + piece in seen:
                raise ValueError(f"cannot cut the answer into distinct tokens near {piece!r}")
            piece = pieces.pop() + piece
        if len(piece.encode("utf-8")) > _MAX_PIECE_BYTES:
            raise ValueError(f"answer piece {piece!r} is longer than {_MAX_PIECE_BYTES} bytes")
        pieces.append(piece)
        seen.add(piece)
        start = end
    return pieces


def write_tiny_model(path: Path, answer: str = DEFAULT_ANSWER, *, endless: bool = False) -> None:
    """Write the tiny model to ``path``: greedy decoding of any chat prompt yields ``answer`` and
    ``<|im_end|>``; or, ``endless``, ``answer`` again and again."""
    import gguf
    import numpy as np

    if not answer:
        raise ValueError("the answer must not be empty")
    byte_chars = _byte_chars()
    # llama.cpp requires merges; one (two spaces) keeps prompts byte-level otherwise
    space = byte_chars[ord(" ")]
    merged = [*byte_chars, space + space]
    pieces = split_answer(answer, {chr(b) for b in range(128)} | {"  "})
    # vocabulary: the byte tokens and the merge, the answer's pieces, then the ChatML specials
    tokens = [*merged, *(_token_text(p, byte_chars) for p in pieces), ENDOFTEXT, IM_START, IM_END]
    token_types = [gguf.TokenType.NORMAL] * (len(tokens) - 3) + [gguf.TokenType.CONTROL] * 3
    chain = list(range(len(merged), len(merged) + len(pieces)))
    eos, endoftext = len(tokens) - 1, len(tokens) - 3
    n_vocab, n_states = len(tokens), len(pieces) + 1
    n_embd = _HEAD_DIM * -(-n_states // _HEAD_DIM)

    embeddings = np.zeros((n_vocab, n_embd), np.float32)
    embeddings[:, 0] = 1.0  # state 0: the chain starts after any token that is not part of it
    for state, token in enumerate(chain, start=1):
        embeddings[token] = 0.0
        embeddings[token, state] = 1.0
    # the final RMS norm scales a one-hot state by sqrt(n_embd); divide that back out of the logits
    output = np.zeros((n_vocab, n_embd), np.float32)
    for state, successor in enumerate([*chain, chain[0] if endless else eos]):
        output[successor, state] = _LOGIT / np.sqrt(n_embd)
    if not endless:
        output[chain[0], n_states - 1] = _LOOP_LOGIT / np.sqrt(n_embd)

    writer = gguf.GGUFWriter(str(path), arch="qwen2")
    writer.add_name(NAME)
    writer.add_description("Tiny cass-lsp test model: answers every prompt with a fixed text")
    writer.add_file_type(gguf.LlamaFileType.ALL_F32)
    writer.add_context_length(_CONTEXT_LENGTH)
    writer.add_embedding_length(n_embd)
    writer.add_block_count(1)
    writer.add_feed_forward_length(_FEED_FORWARD)
    writer.add_head_count(n_embd // _HEAD_DIM)
    writer.add_head_count_kv(1)
    writer.add_rope_freq_base(1_000_000.0)
    writer.add_layer_norm_rms_eps(1e-6)
    writer.add_tokenizer_model("gpt2")
    writer.add_tokenizer_pre("qwen2")
    writer.add_token_list(tokens)
    writer.add_token_types(token_types)
    writer.add_token_merges([f"{space} {space}"])
    writer.add_bos_token_id(endoftext)
    writer.add_eos_token_id(eos)
    writer.add_pad_token_id(endoftext)
    writer.add_add_bos_token(False)
    writer.add_chat_template(CHAT_TEMPLATE)

    writer.add_tensor("token_embd.weight", embeddings)
    writer.add_tensor("output_norm.weight", np.ones(n_embd, np.float32))
    writer.add_tensor("output.weight", output)
    # one block of zero weights: attention and feed-forward add nothing to the residual stream
    layer = {
        "attn_norm.weight": np.ones(n_embd, np.float32),
        "attn_q.weight": np.zeros((n_embd, n_embd), np.float32),
        "attn_q.bias": np.zeros(n_embd, np.float32),
        "attn_k.weight": np.zeros((_HEAD_DIM, n_embd), np.float32),
        "attn_k.bias": np.zeros(_HEAD_DIM, np.float32),
        "attn_v.weight": np.zeros((_HEAD_DIM, n_embd), np.float32),
        "attn_v.bias": np.zeros(_HEAD_DIM, np.float32),
        "attn_output.weight": np.zeros((n_embd, n_embd), np.float32),
        "ffn_norm.weight": np.ones(n_embd, np.float32),
        "ffn_gate.weight": np.zeros((_FEED_FORWARD, n_embd), np.float32),
        "ffn_up.weight": np.zeros((_FEED_FORWARD, n_embd), np.float32),
        "ffn_down.weight": np.zeros((n_embd, _FEED_FORWARD), np.float32),
    }
    for name, tensor in layer.items():
        writer.add_tensor(f"blk.0.{name}", tensor)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Write the tiny cass-lsp test model (a GGUF file).")
    parser.add_argument("out", type=Path, help="the GGUF file to write")
    parser.add_argument("--answer-file", type=Path, help="the answer to give (UTF-8 text; default: a HIP saxpy)")
    parser.add_argument("--endless", action="store_true", help="repeat the answer forever instead of ending it")
    args = parser.parse_args(argv)
    answer = args.answer_file.read_text(encoding="utf-8") if args.answer_file else DEFAULT_ANSWER
    write_tiny_model(args.out, answer, endless=args.endless)
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
