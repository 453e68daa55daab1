"""Which LLVM wrote a bitcode file: the producer string of its identification block.

An LLVM reads bitcode of its own or an older major only, so pairing a clang with device libraries
needs the major that wrote them. LLVM (since 3.8) opens every ``.bc`` with an IDENTIFICATION block
holding ``"LLVM" LLVM_VERSION_STRING`` (``LLVM15.0.5`` for Debian 12's rocm-device-libs,
``LLVM19.0.0git`` for triton's ROCm 7.1 ocml). Reading those few bytes here needs no LLVM tool of
the right version, and cannot be fooled by a tool that happens to read the file.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

_MAGIC = b"BC\xc0\xde"
_IDENTIFICATION_BLOCK = 13
_STRING_CODE = 1
_CHAR6 = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._"
_HEAD_BYTES = 1024  # the identification block is the first thing after the magic, a few dozen bytes
_END_BLOCK, _ENTER_SUBBLOCK, _DEFINE_ABBREV, _UNABBREV_RECORD = 0, 1, 2, 3
_LITERAL, _FIXED, _VBR, _ARRAY, _CHAR6_OP = "literal", 1, 2, 3, 4
# The operand encodings of an abbreviation definition, as (kind, width).
Operand = tuple[object, int]


class _Bits:
    """LLVM's bitstream: fields read least significant bit first."""

    def __init__(self, data: bytes, position: int) -> None:
        self.data = data
        self.position = position

    def fixed(self, width: int) -> int:
        value = 0
        for k in range(width):
            bit = self.position + k
            value |= ((self.data[bit >> 3] >> (bit & 7)) & 1) << k
        self.position += width
        return value

    def vbr(self, width: int) -> int:
        value, shift, more = 0, 0, 1 << (width - 1)
        while True:
            chunk = self.fixed(width)
            value |= (chunk & (more - 1)) << shift
            shift += width - 1
            if not chunk & more:
                return value

    def operand(self, kind: object, width: int) -> int:
        if kind == _LITERAL:
            return width
        if kind == _FIXED:
            return self.fixed(width)
        if kind == _VBR:
            return self.vbr(width)
        if kind == _CHAR6_OP:
            return ord(_CHAR6[self.fixed(6)])
        raise ValueError(f"operand encoding {kind} in an identification record")


def _define_abbrev(bits: _Bits) -> list[Operand]:
    operands: list[Operand] = []
    for _ in range(bits.vbr(5)):
        if bits.fixed(1):
            operands.append((_LITERAL, bits.vbr(8)))
        else:
            kind = bits.fixed(3)
            operands.append((kind, bits.vbr(5) if kind in (_FIXED, _VBR) else 0))
    return operands


def _abbreviated(bits: _Bits, operands: list[Operand]) -> list[int]:
    values: list[int] = []
    index = 0
    while index < len(operands):
        kind, width = operands[index]
        if kind == _ARRAY:
            element = operands[index + 1]
            values += [bits.operand(*element) for _ in range(bits.vbr(6))]
            index += 2
        else:
            values.append(bits.operand(kind, width))
            index += 1
    return values


def _producer(data: bytes) -> str | None:
    if not data.startswith(_MAGIC):
        return None
    bits = _Bits(data, len(_MAGIC) * 8)
    if bits.fixed(2) != _ENTER_SUBBLOCK or bits.vbr(8) != _IDENTIFICATION_BLOCK:
        return None  # bitcode older than LLVM 3.8 has no identification block
    width = bits.vbr(4)
    bits.position = (bits.position + 31) & ~31
    bits.fixed(32)  # the block's length in words
    abbreviations: list[list[Operand]] = []
    while True:
        abbrev_id = bits.fixed(width)
        if abbrev_id == _END_BLOCK:
            return None
        if abbrev_id == _DEFINE_ABBREV:
            abbreviations.append(_define_abbrev(bits))
            continue
        if abbrev_id == _UNABBREV_RECORD:
            code = bits.vbr(6)
            values = [bits.vbr(6) for _ in range(bits.vbr(6))]
        else:
            code, *values = _abbreviated(bits, abbreviations[abbrev_id - 4])
        if code == _STRING_CODE:
            return "".join(map(chr, values))


def producer(path: Path) -> str | None:
    """``LLVM15.0.5``: what wrote ``path``, or None (not bitcode, unreadable, or no such block)."""
    try:
        st = path.stat()
    except OSError:
        return None
    return _cached_producer(str(path), st.st_mtime_ns, st.st_size)


@functools.cache
def _cached_producer(path: str, _mtime: int, _size: int) -> str | None:
    try:
        with open(path, "rb") as handle:
            head = handle.read(_HEAD_BYTES)
        return _producer(head)
    except (OSError, IndexError, ValueError):
        return None


def llvm_major(path: Path) -> int | None:
    """The LLVM major that wrote ``path`` (19 for ``LLVM19.0.0git``), or None when unknown."""
    match = re.match(r"LLVM(\d+)\.", producer(path) or "")
    return int(match.group(1)) if match else None


def folder_major(folder: Path) -> int | None:
    """The newest LLVM major among the ``.bc`` files of ``folder``: a clang must read all it links."""
    majors = [m for m in (llvm_major(p) for p in folder.glob("*.bc")) if m is not None]
    return max(majors) if majors else None
