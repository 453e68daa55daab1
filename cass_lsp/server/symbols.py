"""Outline and navigation: document symbols, kernel references (launch sites), folding ranges."""

from __future__ import annotations

import bisect
from collections.abc import Sequence

from lsprotocol import types

from cass_lsp.document import CudaDocument, LaunchInfo, Span
from cass_lsp.server.app import CassServer
from cass_lsp.server.convert import offset, span_range

_SPACE_DETAIL = {"global": "__global__", "device": "__device__", "host_device": "__host__ __device__", "host": ""}


def _child_symbol(
    doc: CudaDocument, name: str, detail: str, kind: types.SymbolKind, span: Span, selection: Span
) -> types.DocumentSymbol:
    return types.DocumentSymbol(
        name=name, detail=detail, kind=kind, range=span_range(doc, span), selection_range=span_range(doc, selection)
    )


def document_symbols(doc: CudaDocument) -> list[types.DocumentSymbol]:
    """Functions with their kernel launches and __shared__ declarations as children."""
    functions = sorted(doc.constructs.functions, key=lambda f: f.span.start)
    starts = [f.span.start for f in functions]
    children: list[list[types.DocumentSymbol]] = [[] for _ in functions]

    def add(at: int, symbol: types.DocumentSymbol) -> None:
        index = bisect.bisect_right(starts, at) - 1
        if index >= 0 and functions[index].span.contains(at):
            children[index].append(symbol)

    for launch in doc.constructs.launches:
        add(
            launch.span.start,
            _child_symbol(
                doc,
                f"{launch.kernel}{launch.config}",
                "kernel launch",
                types.SymbolKind.Event,
                launch.span,
                launch.name_span,
            ),
        )
    for shared in doc.constructs.shared:
        add(
            shared.span.start,
            _child_symbol(
                doc, shared.name or "__shared__", "__shared__", types.SymbolKind.Variable, shared.span, shared.span
            ),
        )
    return [
        types.DocumentSymbol(
            name=function.name,
            detail=_SPACE_DETAIL[function.space],
            kind=types.SymbolKind.Function,
            range=span_range(doc, function.span),
            selection_range=span_range(doc, function.name_span),
            children=sorted(kids, key=lambda c: (c.range.start.line, c.range.start.character)),
        )
        for function, kids in zip(functions, children, strict=True)
    ]


def _flatten(uri: str, symbols: Sequence[types.DocumentSymbol], container: str | None) -> list[types.SymbolInformation]:
    flat: list[types.SymbolInformation] = []
    for symbol in symbols:
        flat.append(
            types.SymbolInformation(
                name=symbol.name,
                kind=symbol.kind,
                location=types.Location(uri=uri, range=symbol.range),
                container_name=container,
            )
        )
        flat += _flatten(uri, symbol.children or [], symbol.name)
    return flat


def _hierarchical(ls: CassServer) -> bool:
    text_document = ls.client_capabilities.text_document
    symbol = text_document.document_symbol if text_document else None
    return bool(symbol and symbol.hierarchical_document_symbol_support)


def _kernel_name_at(doc: CudaDocument, at: int) -> str | None:
    launch: LaunchInfo | None = next((x for x in doc.constructs.launches if x.name_span.contains(at)), None)
    if launch is not None:
        return launch.kernel
    function = next((f for f in doc.constructs.functions if f.name_span.contains(at)), None)
    return function.name if function is not None and function.space == "global" else None


def register(server: CassServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def document_symbol(
        ls: CassServer, params: types.DocumentSymbolParams
    ) -> list[types.DocumentSymbol] | list[types.SymbolInformation]:
        doc = ls.document(params.text_document.uri)
        if doc is None:
            return []
        symbols = document_symbols(doc)
        return symbols if _hierarchical(ls) else _flatten(doc.uri, symbols, None)

    @server.feature(types.TEXT_DOCUMENT_REFERENCES)
    def references(ls: CassServer, params: types.ReferenceParams) -> list[types.Location]:
        doc = ls.document(params.text_document.uri)
        if doc is None:
            return []
        kernel = _kernel_name_at(doc, offset(doc, params.position))
        if kernel is None:
            return []
        locations: list[types.Location] = []
        for other in ls.documents.values():
            if params.context.include_declaration:
                locations += [
                    types.Location(uri=other.uri, range=span_range(other, f.name_span))
                    for f in other.constructs.functions
                    if f.name == kernel and f.space == "global"
                ]
            locations += [
                types.Location(uri=other.uri, range=span_range(other, launch.name_span))
                for launch in other.launches_of(kernel)
            ]
        return locations

    @server.feature(types.TEXT_DOCUMENT_FOLDING_RANGE)
    def folding_range(ls: CassServer, params: types.FoldingRangeParams) -> list[types.FoldingRange]:
        doc = ls.document(params.text_document.uri)
        if doc is None:
            return []
        ranges = []
        for function in doc.constructs.functions:
            start_line = doc.position_at(function.span.start)[0]
            end_line = doc.position_at(function.span.end)[0]
            if end_line > start_line:
                ranges.append(types.FoldingRange(start_line=start_line, end_line=end_line))
        return ranges
