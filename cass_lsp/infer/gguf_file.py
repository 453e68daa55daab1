"""Read and check a GGUF file's header without loading the model (``cass-lsp models check``).

Standard library only (plus msgspec for the result), so the server and the CLI can tell a usable
model from a truncated download, a Hugging Face checkpoint or an HTML error page in milliseconds,
before llama.cpp fails on it with a less helpful message. The layout read here is GGUF 2 and 3:
magic ``GGUF``, version, tensor count, metadata count, the metadata key/values, the tensor infos,
then the tensor data at the next multiple of ``general.alignment``.
"""

from __future__ import annotations

import math
import os
import struct
from typing import TYPE_CHECKING, BinaryIO

import msgspec

from cass_lsp.infer.backend import ModelError

if TYPE_CHECKING:
    from cass_lsp.infer.manifest import ModelSpec

_MAGIC = b"GGUF"
_VERSIONS = (2, 3)
_DEFAULT_ALIGNMENT = 32
_MAX_DIMS = 4  # GGML_MAX_DIMS: more means the tensor infos are garbage
_SHOWN_LINE = 100
_CHUNK = 1 << 20
_MAX_STRING = 1 << 20  # a key, a name or a chat template: kilobytes; past this only the start is kept
_MAX_NESTING = 8  # arrays of arrays: llama.cpp reads none; deeper than this is garbage or an attack
_STRING, _ARRAY = 8, 9
_SCALARS: dict[int, struct.Struct] = {
    0: struct.Struct("<B"),
    1: struct.Struct("<b"),
    2: struct.Struct("<H"),
    3: struct.Struct("<h"),
    4: struct.Struct("<I"),
    5: struct.Struct("<i"),
    6: struct.Struct("<f"),
    7: struct.Struct("<?"),
    10: struct.Struct("<Q"),
    11: struct.Struct("<q"),
    12: struct.Struct("<d"),
}
_U32, _U64 = _SCALARS[4], _SCALARS[10]

# ggml tensor type -> (elements per block, bytes per block), to find where the tensor data ends
_BLOCKS: dict[int, tuple[int, int]] = {
    0: (1, 4), 1: (1, 2), 2: (32, 18), 3: (32, 20), 6: (32, 22), 7: (32, 24), 8: (32, 34), 9: (32, 40),
    10: (256, 84), 11: (256, 110), 12: (256, 144), 13: (256, 176), 14: (256, 210), 15: (256, 292),
    16: (256, 66), 17: (256, 74), 18: (256, 98), 19: (256, 50), 20: (32, 18), 21: (256, 110),
    22: (256, 82), 23: (256, 136), 24: (1, 1), 25: (1, 2), 26: (1, 4), 27: (1, 8), 28: (1, 8),
    29: (256, 56), 30: (1, 2), 34: (256, 54), 35: (256, 66), 39: (32, 17),
}  # fmt: skip

# general.file_type -> llama.cpp's name for it (llama_ftype)
FILE_TYPES: dict[int, str] = {
    0: "F32", 1: "F16", 2: "Q4_0", 3: "Q4_1", 7: "Q8_0", 8: "Q5_0", 9: "Q5_1", 10: "Q2_K", 11: "Q3_K_S",
    12: "Q3_K_M", 13: "Q3_K_L", 14: "Q4_K_S", 15: "Q4_K_M", 16: "Q5_K_S", 17: "Q5_K_M", 18: "Q6_K",
    19: "IQ2_XXS", 20: "IQ2_XS", 21: "Q2_K_S", 22: "IQ3_XS", 23: "IQ3_XXS", 24: "IQ1_S", 25: "IQ4_NL",
    26: "IQ3_S", 27: "IQ3_M", 28: "IQ2_S", 29: "IQ2_M", 30: "IQ4_XS", 31: "IQ1_M", 32: "BF16",
    36: "TQ1_0", 37: "TQ2_0", 38: "MXFP4_MOE",
}  # fmt: skip


class GgufError(ModelError):
    """The file is not a usable GGUF model; the message names the file and says why."""


class GgufInfo(msgspec.Struct, frozen=True, kw_only=True):
    path: str
    size: int
    version: int
    architecture: str
    name: str | None
    context_length: int | None
    """``{architecture}.context_length``: the context the model was trained for."""
    has_chat_template: bool
    chat_template_first_line: str | None
    """Shortened to 100 characters: enough to recognise a template (ChatML, Llama, ...)."""
    tokenizer_model: str
    vocab_size: int
    eos_token_id: int | None
    file_type: str | None
    """The quantization (``Q4_K_M``), from ``general.file_type``."""
    tensor_count: int
    metadata_count: int


class _Truncated(Exception):
    def __init__(self, what: str, start: int) -> None:
        super().__init__(what, start)
        self.what, self.start = what, start


class _Corrupt(Exception):
    def __init__(self, message: str, position: int) -> None:
        super().__init__(message, position)
        self.message, self.position = message, position


class _Cursor:
    """Reads little-endian GGUF fields from the file's start, raising :class:`_Truncated` at its end.

    Reads go through a window of about a megabyte (not a mapping: a mapped file that shrinks under
    the server, a download restarted, would crash it with SIGBUS). What is skipped is never read,
    only seeked past, and a string is read up to :data:`_MAX_STRING` bytes: a header that claims
    gigabytes of strings or arrays costs no more memory than a real one.
    """

    def __init__(self, file: BinaryIO, size: int) -> None:
        self.file, self.size = file, size
        self.window = b""
        self.window_start = 0
        self.pos = 0

    def head(self, count: int) -> bytes:
        self.file.seek(0)
        return self.file.read(min(count, self.size))

    def take(self, count: int, what: str) -> int:
        """Move past the next ``count`` bytes; their offset in :attr:`window`."""
        start = self.pos
        if start + count > self.size:
            raise _Truncated(what, start)
        offset = start - self.window_start
        if offset < 0 or offset + count > len(self.window):
            self.file.seek(start)
            self.window, self.window_start, offset = self.file.read(max(count, _CHUNK)), start, 0
            if len(self.window) < count:  # the file shrank since its size was taken
                raise _Truncated(what, start)
        self.pos = start + count
        return offset

    def skip(self, count: int, what: str) -> None:
        if self.pos + count > self.size:
            raise _Truncated(what, self.pos)
        self.pos += count

    def unpack(self, fmt: struct.Struct, what: str) -> int | float | bool:
        offset = self.take(fmt.size, what)  # first: it may move the window
        value: int | float | bool = fmt.unpack_from(self.window, offset)[0]
        return value

    def u32(self, what: str) -> int:
        return int(self.unpack(_U32, what))

    def u64(self, what: str) -> int:
        return int(self.unpack(_U64, what))

    def string(self, what: str) -> str:
        """The string, or its first :data:`_MAX_STRING` bytes (the rest skipped)."""
        length = self.u64(what)
        if self.pos + length > self.size:
            raise _Truncated(what, self.pos)
        kept = min(length, _MAX_STRING)
        offset = self.take(kept, what)
        self.skip(length - kept, what)
        return self.window[offset : offset + kept].decode("utf-8", "replace")

    def skip_strings(self, count: int, what: str) -> None:
        """Skip ``count`` strings undecoded; one loop, as a vocabulary has 150k of them."""
        if count * 8 > self.size - self.pos:  # each is at least its 8-byte length
            raise _Truncated(what, self.pos)
        size, length_at = self.size, _U64.unpack_from
        for _ in range(count):
            start = self.pos
            pos = self.pos - self.window_start
            if pos >= 0 and pos + 8 <= len(self.window):  # the common case, inline: no call
                length = length_at(self.window, pos)[0]
                self.pos += 8
            else:
                offset = self.take(8, what)
                length = length_at(self.window, offset)[0]
            self.pos += length
            if self.pos > size:
                raise _Truncated(what, start)


Value = int | float | bool | str


def read(path: str | os.PathLike[str]) -> GgufInfo:
    """The header of the GGUF file at ``path``, or :class:`GgufError` saying why it is not usable."""
    name = os.fspath(path)
    if os.path.isdir(name):
        raise GgufError(f"{name}: is a directory, not a GGUF file")
    try:
        with open(name, "rb") as file:
            size = os.fstat(file.fileno()).st_size
            if size == 0:
                raise GgufError(f"{name}: empty file (0 bytes), not a GGUF model")
            return _parse(name, _Cursor(file, size))
    except FileNotFoundError:
        raise GgufError(f"{name}: no such file") from None
    except OSError as exc:
        raise GgufError(f"{name}: cannot read it: {exc.strerror or exc}") from None


def _parse(path: str, cursor: _Cursor) -> GgufInfo:
    size = cursor.size
    head = cursor.head(64)
    if head[:4] != _MAGIC:
        raise GgufError(f"{path}: not a GGUF file: it looks like {_looks_like(head)}")
    try:
        cursor.skip(4, "the magic")
        version = cursor.u32("the version")
        if version not in _VERSIONS:
            raise GgufError(f"{path}: {_version_problem(version)}")
        tensor_count = cursor.u64("the tensor count")
        metadata_count = cursor.u64("the metadata count")
        values, array_lengths = _read_metadata(cursor, metadata_count)
        data_end = _read_tensor_infos(cursor, tensor_count)
    except _Truncated as cut:
        raise GgufError(
            f"{path}: truncated: the file ends at byte {size}, inside {cut.what} (from byte {cut.start})"
        ) from None
    except _Corrupt as bad:
        raise GgufError(f"{path}: corrupt GGUF header near byte {bad.position}: {bad.message}") from None
    if tensor_count == 0:
        raise GgufError(f"{path}: no tensors (a vocabulary-only file?): not a model")
    alignment = values.get("general.alignment", _DEFAULT_ALIGNMENT)
    alignment = alignment if isinstance(alignment, int) and alignment > 0 else _DEFAULT_ALIGNMENT
    needed = -(-cursor.pos // alignment) * alignment + data_end
    if size < needed:
        raise GgufError(
            f"{path}: truncated: the tensor data ends at byte {needed}, the file at byte {size}"
            f" ({needed - size} bytes missing; an interrupted download or conversion?)"
        )
    return _info(path, size, version, values, array_lengths, tensor_count, metadata_count)


def _read_metadata(cursor: _Cursor, count: int) -> tuple[dict[str, Value], dict[str, int]]:
    """Scalars and strings by key, and arrays as their lengths only (the vocabulary is 150k strings)."""
    values: dict[str, Value] = {}
    array_lengths: dict[str, int] = {}
    for index in range(count):
        key = cursor.string(f"the key of metadata entry {index}")
        what = f"the metadata value of {key}"
        kind = cursor.u32(what)
        if kind == _ARRAY:
            item_kind, length = cursor.u32(what), cursor.u64(what)
            _skip_array(cursor, item_kind, length, key, what)
            array_lengths[key] = length
        elif kind == _STRING:
            values[key] = cursor.string(what)
        elif kind in _SCALARS:
            values[key] = cursor.unpack(_SCALARS[kind], what)
        else:
            raise _Corrupt(f"unknown value type {kind} for metadata key {key!r}", cursor.pos)
    return values, array_lengths


def _skip_array(cursor: _Cursor, kind: int, length: int, key: str, what: str) -> None:
    """Skip an array and the arrays nested in it: a loop, not recursion (a file that nests them
    thousands deep must get an error, not a RecursionError), and at most :data:`_MAX_NESTING` deep
    (llama.cpp reads none nested at all)."""
    pending = [(kind, length)]  # per open array: its item type, items left
    while pending:
        kind, left = pending.pop()
        if kind in _SCALARS:
            cursor.skip(left * _SCALARS[kind].size, what)
        elif kind == _STRING:
            cursor.skip_strings(left, what)
        elif kind != _ARRAY:
            raise _Corrupt(f"unknown array item type {kind} for metadata key {key!r}", cursor.pos)
        elif left:
            if left * 12 > cursor.size - cursor.pos:  # each is at least its type and length
                raise _Truncated(what, cursor.pos)
            if len(pending) + 2 > _MAX_NESTING:  # the depth of the item about to be opened
                raise _Corrupt(f"arrays nested more than {_MAX_NESTING} deep in metadata key {key!r}", cursor.pos)
            pending.append((kind, left - 1))
            pending.append((cursor.u32(what), cursor.u64(what)))


def _read_tensor_infos(cursor: _Cursor, count: int) -> int:
    """Skip the tensor infos; return where the tensor data ends relative to its start (as far as
    known: tensors of a type this module has no size for count from their offset only)."""
    data_end = 0
    for index in range(count):
        what = f"the info of tensor {index}"
        tensor = cursor.string(what)
        n_dims = cursor.u32(what)
        if n_dims > _MAX_DIMS:
            raise _Corrupt(f"tensor {tensor!r} has {n_dims} dimensions", cursor.pos)
        elements = math.prod(cursor.u64(what) for _ in range(n_dims))
        kind, offset = cursor.u32(what), cursor.u64(what)
        per_block, block_bytes = _BLOCKS.get(kind, (1, 0))
        data_end = max(data_end, offset + elements // per_block * block_bytes)
    return data_end


def _version_problem(version: int) -> str:
    if int.from_bytes(version.to_bytes(4, "little"), "big") in _VERSIONS:
        return "a big-endian GGUF file: llama.cpp on this machine reads little-endian ones only"
    if version == 1:
        return "GGUF version 1 is too old for llama.cpp: convert the model again"
    return f"unsupported GGUF version {version} (llama.cpp reads {' and '.join(map(str, _VERSIONS))})"


def _looks_like(head: bytes) -> str:
    """A guess at what a non-GGUF file is, from its first bytes."""
    text = head.lstrip().lower()
    if head.startswith(b"version https://git-lfs"):
        return "a Git LFS pointer, not the file itself (run `git lfs pull`)"
    if text.startswith((b"<!doctype html", b"<html")):
        return "an HTML page (a failed download?)"
    if len(head) > 8 and head[8:10] == b'{"':
        return "a safetensors file (a Hugging Face checkpoint: convert it with convert_hf_to_gguf.py)"
    if head.startswith(b"PK\x03\x04"):
        return "a zip archive (a PyTorch checkpoint?)"
    if head[:4] in (b"lmgg", b"fmgg", b"tjgg"):
        return "a GGML file from before GGUF (convert the model again)"
    if text.startswith((b"{", b"[")):
        return "a JSON file"
    try:
        head.decode("utf-8")
    except UnicodeDecodeError:
        return f"binary data starting with {head[:4]!r}"
    return "a text file"


def _info(
    path: str,
    size: int,
    version: int,
    values: dict[str, Value],
    array_lengths: dict[str, int],
    tensor_count: int,
    metadata_count: int,
) -> GgufInfo:
    architecture = values.get("general.architecture")
    if not isinstance(architecture, str):
        raise GgufError(f"{path}: no general.architecture in the metadata: not a llama.cpp model")
    tokenizer = values.get("tokenizer.ggml.model")
    if not isinstance(tokenizer, str) or "tokenizer.ggml.tokens" not in array_lengths:
        raise GgufError(f"{path}: no tokenizer (tokenizer.ggml.model and .tokens): llama.cpp cannot prompt it")
    template = values.get("tokenizer.chat_template")
    template = template if isinstance(template, str) and template.strip() else None
    file_type = values.get("general.file_type")
    return GgufInfo(
        path=path,
        size=size,
        version=version,
        architecture=architecture,
        name=_str(values.get("general.name")),
        context_length=_int(values.get(f"{architecture}.context_length")),
        has_chat_template=template is not None,
        chat_template_first_line=_first_line(template) if template else None,
        tokenizer_model=tokenizer,
        vocab_size=array_lengths["tokenizer.ggml.tokens"],
        eos_token_id=_int(values.get("tokenizer.ggml.eos_token_id")),
        file_type=FILE_TYPES.get(file_type, f"type {file_type}") if isinstance(file_type, int) else None,
        tensor_count=tensor_count,
        metadata_count=metadata_count,
    )


def _first_line(text: str) -> str:
    line = text.strip().splitlines()[0]
    return line if len(line) <= _SHOWN_LINE else line[: _SHOWN_LINE - 1] + "…"


def _str(value: Value | None) -> str | None:
    return value if isinstance(value, str) else None


def _int(value: Value | None) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def validate(info: GgufInfo, spec: ModelSpec | None) -> list[str]:
    """What makes this file unfit to serve as ``spec`` (or as any CASS model): empty when fit."""
    problems: list[str] = []
    if not info.has_chat_template:
        problems.append(
            "no chat template (tokenizer.chat_template): CASS models are prompted through it;"
            " convert the checkpoint again with a recent convert_hf_to_gguf.py, which copies it"
        )
    if spec is None:
        return problems
    if info.architecture != spec.architecture:
        problems.append(f"architecture {info.architecture}, but {spec.name} is a {spec.architecture} model")
    if info.context_length is not None and info.context_length < spec.context_size:
        problems.append(
            f"trained for {info.context_length} tokens of context, less than the {spec.context_size}"
            f" cass-lsp opens for {spec.name}: is this the right file?"
        )
    return problems
