"""Engine edits (UTF-8 byte spans) to LSP WorkspaceEdits, shaped by what the client can apply.

Text edits stay token-sized, exactly as the engine made them: an editor applying them keeps every
byte outside them (line endings, BOM, non-ASCII text) and the user's undo history stays readable.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from lsprotocol import types

from cass_lsp.server.app import CassServer
from cass_lsp.server.convert import byte_range
from cass_lsp.syntax.document import CudaDocument

if TYPE_CHECKING:
    from cass_lsp.translate import Edit

_START = types.Range(start=types.Position(line=0, character=0), end=types.Position(line=0, character=0))


def _workspace_edit_caps(ls: CassServer) -> types.WorkspaceEditClientCapabilities | None:
    workspace = ls.client_capabilities.workspace
    return workspace.workspace_edit if workspace else None


def supports_document_changes(ls: CassServer) -> bool:
    caps = _workspace_edit_caps(ls)
    return bool(caps and caps.document_changes)


def supports_create_file(ls: CassServer) -> bool:
    caps = _workspace_edit_caps(ls)
    return bool(
        caps
        and caps.document_changes
        and caps.resource_operations
        and types.ResourceOperationKind.Create in caps.resource_operations
    )


def supports_change_annotations(ls: CassServer) -> bool:
    caps = _workspace_edit_caps(ls)
    return bool(caps and caps.change_annotation_support is not None)


def text_edits(doc: CudaDocument, edits: Sequence[Edit]) -> list[types.TextEdit]:
    """LSP edits for engine edits made against `doc`'s current bytes."""
    return [types.TextEdit(range=byte_range(doc, e.start_byte, e.end_byte), new_text=e.new_text) for e in edits]


def document_edit(ls: CassServer, doc: CudaDocument, edits: list[types.TextEdit]) -> types.WorkspaceEdit:
    """Edits of an open document, tied to its version where the client can check one."""
    if supports_document_changes(ls):
        identifier = types.OptionalVersionedTextDocumentIdentifier(uri=doc.uri, version=doc.version)
        return types.WorkspaceEdit(document_changes=[types.TextDocumentEdit(text_document=identifier, edits=edits)])
    return types.WorkspaceEdit(changes={doc.uri: edits})


def new_file_edit(ls: CassServer, uri: str, text: str, *, overwrite: bool) -> types.WorkspaceEdit:
    """Create `uri` holding `text`, in one WorkspaceEdit.

    Without `overwrite`, the CreateFile carries no options, so a client fails it when the file has
    appeared since the server looked (ignoreIfExists would instead insert the text into that file).
    Clients that cannot create files get the text inserted into `uri` as a new buffer (Neovim opens
    a buffer for a missing file); callers offer that only when the file does not exist.
    """
    insert = [types.TextEdit(range=_START, new_text=text)]
    if not supports_create_file(ls):
        return types.WorkspaceEdit(changes={uri: insert})
    options = types.CreateFileOptions(overwrite=True) if overwrite else None
    return types.WorkspaceEdit(
        document_changes=[
            types.CreateFile(uri=uri, options=options),
            types.TextDocumentEdit(
                text_document=types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=None), edits=insert
            ),
        ]
    )
