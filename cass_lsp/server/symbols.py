"""Outline and navigation: document symbols, kernel references (launch sites), folding ranges."""

from __future__ import annotations

import bisect
import contextlib
import weakref
from collections.abc import Iterable, Sequence

import cattrs
import msgspec
from lsprotocol import types

from cass_lsp.server.app import CassServer
from cass_lsp.server.convert import offset, span_range
from cass_lsp.syntax.document import CudaDocument, FunctionInfo, LaunchInfo, Position, Span

_SPACE_DETAIL = {"global": "__global__", "device": "__device__", "host_device": "__host__ __device__", "host": ""}


ChildKey = tuple[str, str, types.SymbolKind, int, int, int, int]
"""(name, detail, kind, range, selection range) of a launch or __shared__ symbol, the ranges as byte
offsets from the start of the function that holds it."""
FunctionKey = tuple[bytes, Position, str, str, int, int, tuple[ChildKey, ...]]
"""(the function's text, its start position, name, detail, selection range as byte offsets from its
start, children) of a function symbol: everything its symbol is made of. The text fixes where every
offset inside it falls relative to the start, so equal keys mean equal symbols."""


_json_forms: dict[int, tuple[types.DocumentSymbol, object]] = {}
"""id(symbol) -> (symbol, its JSON: msgspec.Raw bytes) for the symbols outlines currently hold."""

_encode = msgspec.json.Encoder().encode


def with_json_forms(converter: cattrs.Converter) -> cattrs.Converter:
    """Let ``converter`` answer a reused symbol with the JSON it wrote for it before.

    After an edit nearly all symbols are the previous reply's (see :class:`_Outline`), so their JSON
    is too: each is kept as ``msgspec.Raw``, which protocol.py's msgspec encoder copies into the
    reply as it is. Turning a 5k-line file's outline into JSON values and encoding them took ~2 ms
    after every edit; copying the kept bytes takes a fraction of that."""
    unstructure = converter.get_unstructure_hook(types.DocumentSymbol)

    def cached(symbol: types.DocumentSymbol) -> object:
        known = _json_forms.get(id(symbol))
        if known is not None and known[0] is symbol:
            return known[1]
        form = unstructure(symbol)
        # a lone surrogate in a name stays JSON values: only protocol.py's fallback can write it
        with contextlib.suppress(UnicodeEncodeError):
            form = msgspec.Raw(_encode(form))
        _json_forms[id(symbol)] = (symbol, form)
        return form

    converter.register_unstructure_hook(types.DocumentSymbol, cached)
    return converter


def _forget_forms(symbols: Iterable[types.DocumentSymbol]) -> None:
    """Drop the JSON of ``symbols`` and of their children (whose JSON the converter kept too)."""
    for symbol in symbols:
        _json_forms.pop(id(symbol), None)
        _forget_forms(symbol.children or ())


class _Outline:
    """The lsprotocol objects of one document's latest outline, by key.

    After an edit nearly every function of a large file has the same text, children and start
    position as before, and building its symbol (LSP positions for a dozen offsets, validated attrs
    objects) is most of an outline's cost on a 5k-line file: those symbols are reused from the
    previous reply, and only the functions' start positions are looked up. Each outline keeps only
    the symbols it used, so the cache stays the size of one reply (its keys hold the functions'
    text: about one more copy of the file)."""

    def __init__(self) -> None:
        self.previous: dict[FunctionKey, types.DocumentSymbol] = {}
        self.current: dict[FunctionKey, types.DocumentSymbol] = {}

    def finish(self) -> None:
        """Forget the symbols the outline just built did not use (and their JSON forms)."""
        kept = {id(symbol) for symbol in self.current.values()}
        _forget_forms(symbol for symbol in self.previous.values() if id(symbol) not in kept)
        self.previous, self.current = self.current, {}

    def forget(self) -> None:
        _forget_forms((*self.previous.values(), *self.current.values()))

    def reuse(self, key: FunctionKey) -> types.DocumentSymbol | None:
        found = self.previous.get(key)
        if found is not None:
            self.current[key] = found
        return found

    def keep(self, key: FunctionKey, symbol: types.DocumentSymbol) -> types.DocumentSymbol:
        self.current[key] = symbol
        return symbol


_outlines: weakref.WeakKeyDictionary[CudaDocument, _Outline] = weakref.WeakKeyDictionary()


def _range(start: Position, end: Position) -> types.Range:
    return types.Range(start=types.Position(*start), end=types.Position(*end))


def _build(key: FunctionKey, function: FunctionInfo, positions: dict[int, Position]) -> types.DocumentSymbol:
    _, _, name, detail, name_start, name_end, kids = key
    base = function.span.start

    def range_(start: int, end: int) -> types.Range:
        return _range(positions[base + start], positions[base + end])

    children = [
        types.DocumentSymbol(
            name=kid_name, detail=kid_detail, kind=kind, range=range_(a, b), selection_range=range_(c, d), children=None
        )
        for kid_name, kid_detail, kind, a, b, c, d in kids
    ]
    return types.DocumentSymbol(
        name=name,
        detail=detail,
        kind=types.SymbolKind.Function,
        range=_range(positions[base], positions[function.span.end]),
        selection_range=range_(name_start, name_end),
        children=children,
    )


def _offsets(key: FunctionKey, function: FunctionInfo) -> list[int]:
    """The offsets whose positions the symbol of ``key`` needs."""
    _, _, _, _, name_start, name_end, kids = key
    base = function.span.start
    relative = [name_start, name_end, *(offset for kid in kids for offset in kid[3:])]
    return [base, function.span.end, *(base + offset for offset in relative)]


def document_symbols(doc: CudaDocument) -> list[types.DocumentSymbol]:
    """Functions with their kernel launches and __shared__ declarations as children."""
    outline = _outlines.get(doc)
    if outline is None:
        outline = _outlines[doc] = _Outline()
        # the JSON forms live in a module-level table: a closed document takes its own with it
        weakref.finalize(doc, outline.forget)
    constructs = doc.constructs
    functions = constructs.functions  # in source order already
    starts = [f.span.start for f in functions]
    children: list[list[tuple[str, str, types.SymbolKind, Span, Span]]] = [[] for _ in functions]

    def add(at: int, name: str, detail: str, kind: types.SymbolKind, span: Span, selection: Span) -> None:
        index = bisect.bisect_right(starts, at) - 1
        if index >= 0 and functions[index].span.contains(at):
            children[index].append((name, detail, kind, span, selection))

    for launch in constructs.launches:
        name = f"{launch.kernel}{launch.config}"
        add(launch.span.start, name, "kernel launch", types.SymbolKind.Event, launch.span, launch.name_span)
    for shared in constructs.shared:
        name = shared.name or "__shared__"
        add(shared.span.start, name, "__shared__", types.SymbolKind.Variable, shared.span, shared.span)
    source = doc.source
    start_positions = doc.positions_at(starts)
    keys: list[FunctionKey] = []
    for function, kids in zip(functions, children, strict=True):
        kids.sort(key=lambda kid: kid[3].start)  # by where the child starts
        base = function.span.start
        keys.append(
            (
                source[base : function.span.end],
                start_positions[base],
                function.name,
                _SPACE_DETAIL[function.space],
                function.name_span.start - base,
                function.name_span.end - base,
                tuple(
                    (name, detail, kind, span.start - base, span.end - base, sel.start - base, sel.end - base)
                    for name, detail, kind, span, sel in kids
                ),
            )
        )
    # one positions_at call for every symbol that has to be built: the per-call overhead matters
    new = [(key, function) for key, function in zip(keys, functions, strict=True) if key not in outline.previous]
    positions = doc.positions_at(offset for key, function in new for offset in _offsets(key, function))
    symbols = [
        outline.reuse(key) or outline.keep(key, _build(key, function, positions))
        for key, function in zip(keys, functions, strict=True)
    ]
    outline.finish()
    return symbols


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
