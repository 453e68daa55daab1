"""Engine spans (UTF-8 byte offsets) to LSP ranges (UTF-16 positions) and back."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, TypeVar

import msgspec
from lsprotocol import types
from pygls import uris
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams

from cass_lsp.syntax.document import CudaDocument, Span

if TYPE_CHECKING:
    from cass_lsp.server.app import CassServer

T = TypeVar("T")


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


def is_link(uri: str) -> bool:
    """Whether ``uri`` names a symbolic link. The editor shows and sends the text of the file the
    link names, which may lie anywhere (``kernels.cu -> ~/.ssh/id_ed25519``): no new file is made of
    it, as ``cass-lsp translate`` does not follow one either."""
    path = file_path(uri)
    return path is not None and os.path.islink(path)


def json_value(value: Any) -> Any:
    """pygls decodes the JSON objects of custom requests (and its client, of replies) into named
    tuples; turn them back into plain JSON values."""
    if hasattr(value, "_asdict"):
        return {key: json_value(item) for key, item in value._asdict().items()}
    if isinstance(value, list | tuple):
        return [json_value(item) for item in value]
    return value


def decode_params(params: Any, kind: type[T]) -> T:
    """A custom request's params as ``kind``; params of the wrong shape are the client's error
    (InvalidParams with what is wrong), not the server's (an internal error with a traceback)."""
    try:
        return msgspec.convert(json_value(params), kind)
    except (msgspec.ValidationError, UnicodeEncodeError) as error:  # a lone surrogate: no str msgspec can hold
        raise JsonRpcInvalidParams(message=f"Invalid Params: {error}") from error


def uri_argument(value: Any, command: str) -> str:
    """A command's URI argument, checked to be a string (commands take positional JSON values)."""
    if not isinstance(value, str):
        raise JsonRpcInvalidParams(
            message=f"Invalid Params: {command} takes a document URI, got {type(value).__name__}"
        )
    return value


def workspace_roots(ls: CassServer) -> list[str]:
    """The client's workspace folders (or its root) as real paths."""
    workspace = ls.workspace
    roots = [file_path(folder.uri) for folder in workspace.folders.values()]
    if not roots and workspace.root_path:
        roots = [workspace.root_path]
    return [os.path.realpath(r) for r in roots if r]


def workspace_file(ls: CassServer, uri: str, what: str) -> str:
    """The real path of a ``file:`` URI that a request wants the server to read from disk, refused
    (RequestFailed, with why) when it is another scheme or lies outside every workspace folder
    (after ``..`` and symbolic links are resolved). With no workspace folder at all (a single file
    opened in an editor), only a file open in the editor is accepted."""
    path = file_path(uri)
    if path is None:
        raise refused(f"{what}: {uri} is not a file: URI")
    real = os.path.realpath(path)
    roots = workspace_roots(ls)
    if any(real == root or real.startswith(root.rstrip(os.sep) + os.sep) for root in roots):
        return real
    if not roots and any(os.path.realpath(p) == real for p in map(file_path, ls.documents) if p):
        return real
    where = ", ".join(roots) if roots else "no workspace folder, and the file is not open in the editor"
    raise refused(f"{what}: {path} is outside the workspace ({where}); refused")


def refused(message: str) -> JsonRpcException:
    """A request the server understood and declines (LSP RequestFailed), with why, for the user."""
    return JsonRpcException(message=f"cass-lsp: {message}", code=types.LSPErrorCodes.RequestFailed)
