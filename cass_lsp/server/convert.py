"""Engine spans (UTF-8 byte offsets) to LSP ranges (UTF-16 positions) and back."""

from __future__ import annotations

from typing import Any

from lsprotocol import types
from pygls import uris

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


def file_path(uri: str) -> str | None:
    """The file system path a `file:` URI names; None for other schemes (untitled buffers)."""
    return uris.to_fs_path(uri) if uri.startswith("file:") else None


def json_value(value: Any) -> Any:
    """pygls decodes the JSON objects of custom requests (and its client, of replies) into named
    tuples; turn them back into plain JSON values."""
    if hasattr(value, "_asdict"):
        return {key: json_value(item) for key, item in value._asdict().items()}
    if isinstance(value, list | tuple):
        return [json_value(item) for item in value]
    return value
