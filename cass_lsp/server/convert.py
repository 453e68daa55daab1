"""Engine spans (UTF-8 byte offsets) to LSP ranges (UTF-16 positions) and back."""

from __future__ import annotations

from lsprotocol import types

from cass_lsp.document import CudaDocument, Span


def position(doc: CudaDocument, offset: int) -> types.Position:
    line, character = doc.position_at(offset)
    return types.Position(line=line, character=character)


def span_range(doc: CudaDocument, span: Span) -> types.Range:
    return byte_range(doc, span.start, span.end)


def byte_range(doc: CudaDocument, start: int, end: int) -> types.Range:
    return types.Range(start=position(doc, start), end=position(doc, end))


def offset(doc: CudaDocument, pos: types.Position) -> int:
    return doc.offset_at((pos.line, pos.character))


def range_offsets(doc: CudaDocument, rng: types.Range) -> tuple[int, int]:
    return offset(doc, rng.start), offset(doc, rng.end)
