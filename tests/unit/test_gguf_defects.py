"""Regression tests for the GGUF header reader (issue 19): a file with thousands of nested arrays
killed `models check` and `doctor` with RecursionError, and skipped strings and arrays were read
into memory, so a crafted header made the server allocate about the file's size."""

from __future__ import annotations

import struct
import tracemalloc
from pathlib import Path

import pytest

from cass_lsp.infer.gguf_file import GgufError, read

STRING, ARRAY, UINT8, UINT32 = 8, 9, 0, 4


def string(text: str) -> bytes:
    return struct.pack("<Q", len(text.encode())) + text.encode()


def gguf(entries: list[bytes], hole: int = 0) -> tuple[bytes, bytes]:
    """A GGUF 3 file with the metadata ``entries`` plus what makes a usable model, and one tensor of
    4 floats: the bytes before and after ``hole`` bytes that come right after the entries (the
    value of the last one; zeros, and in a sparse file nothing written)."""
    usable = [
        string("general.architecture") + struct.pack("<I", STRING) + string("qwen2"),
        string("tokenizer.ggml.model") + struct.pack("<I", STRING) + string("gpt2"),
        string("tokenizer.ggml.tokens") + struct.pack("<IIQ", ARRAY, STRING, 2) + string("a") + string("b"),
        string("tokenizer.chat_template") + struct.pack("<I", STRING) + string("<|im_start|>"),
    ]
    before = b"GGUF" + struct.pack("<IQQ", 3, 1, len(entries) + len(usable)) + b"".join(entries)
    after = b"".join(usable) + string("weight") + struct.pack("<IQIQ", 1, 4, 0, 0)
    return before, after + bytes(-(len(before) + hole + len(after)) % 32) + bytes(16)


def write(path: Path, entries: list[bytes], hole: int = 0) -> None:
    before, after = gguf(entries, hole)
    with path.open("wb") as file:
        file.write(before)
        file.seek(hole, 1)
        file.write(after)


def test_arrays_nested_a_few_deep_are_read(tmp_path: Path) -> None:
    pairs = string("pairs") + struct.pack("<IIQ", ARRAY, ARRAY, 2)
    pairs += (struct.pack("<IQ", UINT32, 2) + struct.pack("<II", 1, 2)) * 2
    path = tmp_path / "pairs.gguf"
    write(path, [pairs])
    assert read(path).architecture == "qwen2"


BIG = 150 << 20
CRAFTED = {
    "a string in a skipped array": string("strings") + struct.pack("<IIQ", ARRAY, STRING, 1) + struct.pack("<Q", BIG),
    "a skipped byte array": string("bytes") + struct.pack("<IIQ", ARRAY, UINT8, BIG),
    "a string value": string("general.description") + struct.pack("<IQ", STRING, BIG),
}


@pytest.mark.parametrize("entry", CRAFTED, ids=list(CRAFTED))
def test_a_crafted_header_costs_no_memory_for_what_it_claims(tmp_path: Path, entry: str) -> None:
    path = tmp_path / "crafted.gguf"
    write(path, [CRAFTED[entry]], hole=BIG)  # a sparse file: no disk space
    tracemalloc.start()
    try:
        info = read(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert info.architecture == "qwen2" and info.size > BIG
    assert peak < 8 << 20, f"reading the header allocated {peak / 2**20:.0f} MiB for a {BIG >> 20} MiB claim"


def test_a_string_longer_than_the_file_is_truncation(tmp_path: Path) -> None:
    path = tmp_path / "short.gguf"
    path.write_bytes(
        b"GGUF" + struct.pack("<IQQ", 3, 1, 1) + string("general.name") + struct.pack("<IQ", STRING, BIG) + b"x"
    )
    with pytest.raises(
        GgufError, match=r"truncated: the file ends at byte \d+, inside the metadata value of general.name"
    ):
        read(path)
