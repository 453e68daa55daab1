"""The CUDA API a document uses: identifiers the CUDA<->HIP API tables know (runtime, driver,
libraries, device functions), found through the grammar's ``api`` captures."""

from __future__ import annotations

from typing import Literal

import msgspec

from cass_lsp.syntax import parsing as syntax
from cass_lsp.syntax.document import CudaDocument, Span
from cass_lsp.translate.entries import lookup

ApiKind = Literal["call", "type", "identifier", "macro"]


class ApiUse(msgspec.Struct, frozen=True, gc=False):
    name: str
    kind: ApiKind
    span: Span


_API_CAPTURE_KINDS: tuple[tuple[str, ApiKind], ...] = (
    ("api.call", "call"),
    ("api.type", "type"),
    ("api.identifier", "identifier"),
)


def api_uses(doc: CudaDocument) -> list[ApiUse]:
    """The API uses of ``doc``, in source order."""
    tree = doc.tree
    if tree is None:
        return []
    found: dict[int, ApiUse] = {}
    caps = syntax.captures("api", tree.root_node)
    for capture, kind in _API_CAPTURE_KINDS:
        for node in caps.get(capture, []):
            name = (node.text or b"").decode("utf-8", "surrogatepass")
            # a call capture is more specific than the bare identifier capture of the same node
            if lookup(name) is not None and (
                node.start_byte not in found or found[node.start_byte].kind == "identifier"
            ):
                found[node.start_byte] = ApiUse(name, kind, Span(node.start_byte, node.end_byte))
    return sorted(found.values(), key=lambda use: use.span.start)


def api_use_at(doc: CudaDocument, offset: int) -> ApiUse | None:
    return next((use for use in api_uses(doc) if use.span.contains(offset)), None)
