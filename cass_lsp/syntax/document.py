"""One open CUDA/HIP file: its text, its tree-sitter tree, and what CUDA constructs it holds.

The text is kept as UTF-8 bytes because tree-sitter works in bytes; LSP positions arrive in UTF-16
code units and are converted at the edge (`offset_at` / `position_at`). Edits mark the tree edited;
the first read of `tree` after them re-parses incrementally, once for however many edits came.
Nothing here knows LSP types: positions are plain (line, character) tuples.
"""

from __future__ import annotations

import bisect
import functools
import logging
from collections.abc import Callable, Iterable, Sequence
from typing import Literal, TypeVar

import msgspec
import tree_sitter

from cass_lsp.core.filekinds import CUDA_DOCUMENT_SUFFIXES
from cass_lsp.syntax import nodes, prepass
from cass_lsp.syntax import parsing as syntax

log = logging.getLogger(__name__)

CUDA_LANGUAGE_IDS = frozenset({"cuda", "cuda-cpp", "hip"})

DEFAULT_MAX_PARSE_BYTES = 4_000_000

Position = tuple[int, int]
"""(line, character) with the character counted in UTF-16 code units, as LSP does."""

ExecutionSpace = Literal["global", "device", "host", "host_device"]


# The construct records hold only strings, numbers and Spans, so they can never be part of a reference
# cycle: gc=False keeps the thousands of them a large file has (and the moved copies each edit makes)
# out of the garbage collector's full passes.
class Span(msgspec.Struct, frozen=True, gc=False):
    start: int
    end: int

    def contains(self, offset: int) -> bool:
        return self.start <= offset <= self.end


class FunctionInfo(msgspec.Struct, frozen=True, gc=False):
    name: str
    space: ExecutionSpace
    span: Span
    name_span: Span


class LaunchInfo(msgspec.Struct, frozen=True, gc=False):
    kernel: str
    span: Span
    name_span: Span
    config: str


class IncludeInfo(msgspec.Struct, frozen=True, gc=False):
    path: str
    span: Span


class SharedDecl(msgspec.Struct, frozen=True, gc=False):
    name: str
    span: Span


class Constructs(msgspec.Struct, frozen=True):
    functions: list[FunctionInfo]
    launches: list[LaunchInfo]
    includes: list[IncludeInfo]
    asm_blocks: list[Span]
    shared: list[SharedDecl]
    macros: list[SharedDecl]


EMPTY_CONSTRUCTS = Constructs([], [], [], [], [], [])


class TextChange(msgspec.Struct, frozen=True):
    """One LSP content change: a range replacement, or the whole text when `range` is None."""

    text: str
    range: tuple[Position, Position] | None = None


class Snapshot(msgspec.Struct, frozen=True):
    """An immutable view for work off the event loop."""

    uri: str
    version: int
    text: str
    tree: tree_sitter.Tree | None


def is_cuda_document(uri_or_path: str, language_id: str | None = None) -> bool:
    """CUDA language ids always count; other ids (VS Code and Neovim send `cpp`) only with a CUDA
    file extension."""
    if language_id in CUDA_LANGUAGE_IDS:
        return True
    lower = uri_or_path.lower()
    return any(lower.endswith(ext) for ext in CUDA_DOCUMENT_SUFFIXES)


def _encode(text: str) -> bytes:
    # surrogatepass keeps lone surrogates (legal in JSON strings) instead of failing the whole edit
    return text.encode("utf-8", "surrogatepass")


def _decode(data: bytes) -> str:
    return data.decode("utf-8", "surrogatepass")


def _utf16_len(text: str) -> int:
    if text.isascii():
        return len(text)
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


class CudaDocument:
    def __init__(
        self,
        uri: str,
        text: str,
        version: int = 0,
        language_id: str = "cuda",
        max_parse_bytes: int = DEFAULT_MAX_PARSE_BYTES,
    ) -> None:
        self.uri = uri
        self.language_id = language_id
        self.version = version
        self.max_parse_bytes = max_parse_bytes
        self._parser = syntax.new_parser()
        self._source = b""
        self._text: str | None = None
        self._line_starts: list[int] = [0]
        self._lines_known_to = 0  # byte offset up to which _line_starts is complete
        self._tree: tree_sitter.Tree | None = None
        # What the parser read for _tree (prepass.prepare of the source), with the edits since
        # spliced in as typed: where the next preparation differs outside them, the tree is told.
        self._prepared = b""
        self._macros: prepass.Macros | None = None  # what the pre-pass rewrites, from the last full preparation
        # The span (current offsets) that edits since the last parse touched, when all were local
        # (prepass.local_edit): only its lines are prepared again; None: prepare everything.
        self._dirty: tuple[int, int] | None = None
        self._unparsed = False  # edits since the last parse: _tree is edited, not yet re-parsed
        self._constructs: Constructs | None = None
        self._stale: _StaleConstructs | None = None  # an older construct list and what changed since
        self._replace_all(text)

    # ------------------------------------------------------------------ text
    @property
    def source(self) -> bytes:
        return self._source

    @property
    def text(self) -> str:
        if self._text is None:
            self._text = _decode(self._source)
        return self._text

    @property
    def too_large(self) -> bool:
        return len(self._source) > self.max_parse_bytes

    @property
    def tree(self) -> tree_sitter.Tree | None:
        """The syntax tree of the current text (None over the parse limit). Edits only mark the tree
        edited; the re-parse happens here, on the first read after them, so a burst of keystrokes
        (or fifty documents' worth) costs one incremental parse each time something looks."""
        if self._unparsed:
            self._parse()
        return self._tree

    @property
    def has_syntax_errors(self) -> bool:
        return self.tree is not None and self.tree.root_node.has_error

    def snapshot(self) -> Snapshot:
        return Snapshot(self.uri, self.version, self.text, self.tree.copy() if self.tree else None)

    def apply_changes(self, changes: Iterable[TextChange], version: int | None = None) -> None:
        """Apply LSP content changes in order. Out-of-order versions are applied too (the client's
        stream order is the truth) and logged, so the text never diverges from the editor's."""
        if version is not None:
            if version <= self.version:
                log.warning(
                    "%s: version %d arrived after %d; applying in stream order", self.uri, version, self.version
                )
            self.version = version
        for change in changes:
            if change.range is None:
                self._replace_all(change.text)
            else:
                self._replace_range(change.range[0], change.range[1], change.text)

    def _replace_all(self, text: str) -> None:
        self._macros = None
        self._source = _encode(text)
        self._text = text
        self._invalidate_lines_from(0)
        self._tree = None
        self._stale = None
        self._changed()

    def _replace_range(self, start: Position, end: Position, new_text: str) -> None:
        start_byte = self.offset_at(start)
        end_byte = max(start_byte, self.offset_at(end))
        new_bytes = _encode(new_text)
        start_point = self._point_at(start_byte)
        old_end_point = self._point_at(end_byte)
        if prepass.local_edit(self._source[start_byte:end_byte], new_bytes):
            self._dirty = _dirty_after(self._dirty, start_byte, end_byte, start_byte + len(new_bytes))
        else:
            self._macros = None
        self._source = self._source[:start_byte] + new_bytes + self._source[end_byte:]
        self._prepared = self._prepared[:start_byte] + new_bytes + self._prepared[end_byte:]
        self._text = None
        self._move_lines(start_byte, end_byte, new_bytes)
        if self._tree is not None and not self.too_large:
            newlines = new_bytes.count(b"\n")
            if newlines:
                new_end_point = (start_point[0] + newlines, len(new_bytes) - new_bytes.rfind(b"\n") - 1)
            else:
                new_end_point = (start_point[0], start_point[1] + len(new_bytes))
            self._tree.edit(
                start_byte=start_byte,
                old_end_byte=end_byte,
                new_end_byte=start_byte + len(new_bytes),
                start_point=start_point,
                old_end_point=old_end_point,
                new_end_point=new_end_point,
            )
            # a construct list that was current becomes stale rather than dropped: the next read
            # re-extracts only what changed
            stale = self._stale_after((start_byte, end_byte, start_byte + len(new_bytes)))
            self._stale = stale if stale is not None and stale.edit(
                start_byte, end_byte, start_byte + len(new_bytes), len(self._source)
            ) else None
        else:
            self._tree = None
            self._stale = None
        self._changed()

    def _changed(self) -> None:
        self._constructs = None
        self._unparsed = True

    def _parse(self) -> None:
        """Parse the current source, reusing the (already edited) tree when there is one; the ranges
        whose structure the re-parse changed join the stale construct list's regions."""
        self._unparsed = False
        if self.too_large:
            log.warning(
                "%s: %d bytes is over the parse limit (%d); syntax features are off for it",
                self.uri,
                len(self._source),
                self.max_parse_bytes,
            )
            self._tree = None
            self._stale = None
            return
        window = None
        if self._macros is not None and self._dirty is not None and len(self._prepared) == len(self._source):
            window = prepass.prepare_window(self._source, self._prepared, *self._dirty, self._macros)
        if window is None:
            self._macros = prepass.scan(self._source)
            prepared, lo, hi = prepass.prepare(self._source, self._macros), 0, len(self._source)
        else:
            prepared, lo, hi = window
        self._dirty = None
        old_tree = self._tree if len(self._prepared) == len(prepared) else None
        if old_tree is None:
            self._stale = None
            self._tree = self._parser.parse(prepared)
        else:
            for start, end in prepass.differences(self._prepared, prepared, lo, hi):
                # the pre-pass rewrote (or stopped rewriting) these bytes: an edit of the same length
                start_point, end_point = self._point_at(start), self._point_at(end)
                old_tree.edit(start, end, end, start_point, end_point, end_point)
            self._tree = self._parser.parse(prepared, old_tree)
        self._prepared = prepared
        if self._stale is not None and old_tree is not None:
            changed = [(r.start_byte, r.end_byte) for r in old_tree.changed_ranges(self._tree)]
            if not self._stale.reparsed(changed, len(self._source)):
                self._stale = None

    def _stale_after(self, edit: tuple[int, int, int]) -> _StaleConstructs | None:
        # Only worth tracking when someone has read the constructs: otherwise the first read extracts
        # everything anyway, and tracking would cost every parse a changed-ranges walk.
        if self._constructs is not None:
            _, old_end, new_end = edit
            return _StaleConstructs(self._constructs, len(self._source) - (new_end - old_end))
        return self._stale

    # ------------------------------------------------------------------ positions
    def _invalidate_lines_from(self, byte_offset: int) -> None:
        # Line starts at or before the edit stay valid; the rest are rebuilt lazily on demand.
        keep = bisect.bisect_right(self._line_starts, byte_offset)
        del self._line_starts[keep:]
        self._lines_known_to = self._line_starts[-1]

    def _move_lines(self, start: int, old_end: int, new_bytes: bytes) -> None:
        # Known line starts past the edit are moved rather than dropped: finding them again costs a
        # scan of the rest of the file, and every outline or diagnostic after an edit needs them.
        if self._lines_known_to <= old_end:
            self._invalidate_lines_from(start)
            return
        starts = self._line_starts
        delta = len(new_bytes) - (old_end - start)
        inserted = []
        newline = new_bytes.find(b"\n")
        while newline >= 0:
            inserted.append(start + newline + 1)
            newline = new_bytes.find(b"\n", newline + 1)
        # starts in (start, old_end] followed a replaced newline; later ones move by delta
        starts[bisect.bisect_right(starts, start) :] = inserted + [
            line_start + delta for line_start in starts[bisect.bisect_right(starts, old_end) :]
        ]
        self._lines_known_to += delta

    def _ensure_lines(self, line: int | None = None, byte_offset: int | None = None) -> None:
        source = self._source
        starts = self._line_starts
        while self._lines_known_to < len(source) + 1:
            if line is not None and len(starts) > line + 1:
                return
            if byte_offset is not None and starts[-1] > byte_offset:
                return
            nl = source.find(b"\n", starts[-1])
            if nl < 0:
                self._lines_known_to = len(source) + 1
                return
            starts.append(nl + 1)
            self._lines_known_to = nl + 1

    @property
    def line_count(self) -> int:
        self._ensure_lines(line=None, byte_offset=len(self._source) + 1)
        return len(self._line_starts)

    def _line_bounds(self, line: int) -> tuple[int, int]:
        self._ensure_lines(line=line)
        starts = self._line_starts
        start = starts[line]
        end = starts[line + 1] - 1 if line + 1 < len(starts) else len(self._source)
        return start, end

    def line_text(self, line: int) -> str:
        if line < 0 or line >= self.line_count:
            return ""
        start, end = self._line_bounds(line)
        return _decode(self._source[start:end]).rstrip("\r")

    def offset_at(self, position: Position) -> int:
        """Byte offset of an LSP position; positions past a line's end or the document's end clamp."""
        line, character = position
        if line < 0:
            return 0
        self._ensure_lines(line=line)
        if line >= len(self._line_starts):
            return len(self._source)
        start, end = self._line_bounds(line)
        line_bytes = self._source[start:end]
        if line_bytes.isascii():
            return start + min(max(character, 0), len(line_bytes))
        units = 0
        byte = start
        for char in _decode(line_bytes):
            if units >= character:
                return byte
            units += 2 if ord(char) > 0xFFFF else 1
            byte += len(_encode(char))
        return end

    def position_at(self, offset: int) -> Position:
        offset = min(max(offset, 0), len(self._source))
        self._ensure_lines(byte_offset=offset)
        line = bisect.bisect_right(self._line_starts, offset) - 1
        start = self._line_starts[line]
        prefix = self._source[start:offset]
        if prefix.isascii():
            return line, len(prefix)
        return line, _utf16_len(prefix.decode("utf-8", "replace"))

    def positions_at(self, offsets: Iterable[int]) -> dict[int, Position]:
        """`position_at` of many offsets at once, by offset: the per-call overhead matters when an
        outline converts thousands of spans."""
        wanted = set(offsets)
        if not wanted:
            return {}
        source, starts = self._source, self._line_starts
        self._ensure_lines(byte_offset=min(max(wanted), len(source)))
        if not (source.isascii() and min(wanted) >= 0 and max(wanted) <= len(source)):
            return {offset: self.position_at(offset) for offset in wanted}
        # the common case, and the cheap one: characters are bytes, so no line needs decoding
        positions: dict[int, Position] = {}
        for offset in wanted:
            line = bisect.bisect_right(starts, offset) - 1
            positions[offset] = (line, offset - starts[line])
        return positions

    def _point_at(self, offset: int) -> tuple[int, int]:
        self._ensure_lines(byte_offset=offset)
        line = bisect.bisect_right(self._line_starts, offset) - 1
        return line, offset - self._line_starts[line]

    # ------------------------------------------------------------------ constructs
    @property
    def constructs(self) -> Constructs:
        """The document's constructs, extracted on first read after a change: after range edits only
        the top-level items the edits touched are queried again; the rest is carried over."""
        if self._constructs is None:
            if self.tree is None:
                self._constructs = EMPTY_CONSTRUCTS
            elif self._stale is not None:
                self._constructs = self._stale.resolve(self.tree)
            else:
                self._constructs = extract_constructs(self.tree)
            self._stale = None
        return self._constructs

    def function_at(self, offset: int, end: int | None = None) -> FunctionInfo | None:
        """The innermost function definition containing [offset, end]. Without a construct list that is
        current or cheap to bring up to date (a stale one, re-extracted around the edits only) it
        queries only the tree around the offset: a full extraction costs tens of milliseconds on a
        large file, too much for a code-action or hover request."""
        end = offset if end is None else end
        if self._constructs is not None or self._stale is not None:
            functions = self.constructs.functions
        elif self.tree is not None:
            functions = extract_constructs(self.tree, (offset, max(end, offset + 1))).functions
        else:
            return None
        best: FunctionInfo | None = None
        for function in functions:
            if (
                function.span.start <= offset
                and end <= function.span.end
                and (best is None or function.span.end - function.span.start < best.span.end - best.span.start)
            ):
                best = function
        return best

    def launch_at(self, offset: int) -> LaunchInfo | None:
        return next((launch for launch in self.constructs.launches if launch.span.contains(offset)), None)

    def word_at(self, offset: int) -> tuple[str, Span] | None:
        source = self._source
        start = offset
        while start > 0 and (source[start - 1 : start].isalnum() or source[start - 1 : start] == b"_"):
            start -= 1
        end = offset
        while end < len(source) and (source[end : end + 1].isalnum() or source[end : end + 1] == b"_"):
            end += 1
        if start == end:
            return None
        return _decode(source[start:end]), Span(start, end)

    def kernels(self) -> list[FunctionInfo]:
        return [f for f in self.constructs.functions if f.space == "global"]

    def launches_of(self, kernel: str) -> list[LaunchInfo]:
        return [launch for launch in self.constructs.launches if launch.kernel == kernel]


def _space_of(qualifiers: set[str]) -> ExecutionSpace:
    if "__global__" in qualifiers:
        return "global"
    if "__device__" in qualifiers:
        return "host_device" if "__host__" in qualifiers else "device"
    return "host"


def _span(node: tree_sitter.Node) -> Span:
    return Span(node.start_byte, node.end_byte)


def _text(node: tree_sitter.Node) -> str:
    return _decode(node.text or b"")


def extract_constructs(tree: tree_sitter.Tree, byte_range: tuple[int, int] | None = None) -> Constructs:
    """The constructs of the whole tree, or of those that intersect `byte_range`."""
    functions: list[FunctionInfo] = []
    launches: list[LaunchInfo] = []
    includes: list[IncludeInfo] = []
    asm_blocks: list[Span] = []
    shared: list[SharedDecl] = []
    macros: list[SharedDecl] = []
    for _, caps in syntax.matches("document", tree.root_node, byte_range):
        if "function" in caps:
            name_node = caps["function.name"][0]
            space = _space_of({_text(n) for n in caps.get("function.space", [])})
            functions.append(FunctionInfo(_text(name_node), space, _span(caps["function"][0]), _span(name_node)))
        elif "launch" in caps:
            launch = caps["launch"][0]
            kernel = caps["launch.name"][0] if "launch.name" in caps else launch.child_by_field_name(nodes.Field.FUNCTION)
            if kernel is not None:
                launches.append(
                    LaunchInfo(_text(kernel), _span(launch), _span(kernel), _text(caps["launch.config"][0]))
                )
        elif "include" in caps:
            path = _text(caps["include.path"][0]).strip('<>"')
            includes.append(IncludeInfo(path, _span(caps["include"][0])))
        elif "asm" in caps:
            asm_blocks.append(_span(caps["asm"][0]))
        elif "shared" in caps:
            names = caps.get("shared.name", [])
            name = _text(names[0]) if names else ""
            shared.append(SharedDecl(name, _span(caps["shared"][0])))
        elif "macro" in caps:
            macros.append(SharedDecl(_text(caps["macro.name"][0]), _span(caps["macro"][0])))
    return Constructs(
        functions=_canonical(functions, _span_of),
        launches=_canonical(launches, _span_of),
        includes=_canonical(includes, _span_of),
        asm_blocks=_canonical(asm_blocks, _itself),
        shared=_canonical(shared, _span_of),
        macros=_canonical(macros, _span_of),
    )


# ------------------------------------------------------------------ incremental re-extraction
Item = TypeVar("Item", FunctionInfo, LaunchInfo, IncludeInfo, Span, SharedDecl)


def _span_of(item: FunctionInfo | LaunchInfo | IncludeInfo | SharedDecl) -> Span:
    return item.span


def _itself(span: Span) -> Span:
    return span


def _canonical(items: Iterable[Item], span_of: Callable[[Item], Span]) -> list[Item]:
    """Items without exact duplicates, in (start, longest first) order. The query yields matches as
    they complete, not by start (`a<<<1,1>>>(x)<<<2,2>>>(y)`: the inner launch first); a fixed order
    lets a list merged from a carried-over part and re-extracted parts equal a fresh extraction. The sort is stable, so items of
    one node (`__shared__ float a[2], b[2];`) keep the query's order, which is the same whichever
    range the query ran over."""
    unique = list(dict.fromkeys(items))
    unique.sort(key=lambda item: (span_of(item).start, -span_of(item).end))
    return unique


# Node types whose children are top-level items in their own right: the constructs inside an
# `#ifdef`, a namespace or an `extern "C" {}` block. They decide how far an edit's region is
# widened, never which constructs are found (the query does that).
_CONTAINER_TYPES = frozenset(
    {
        nodes.IF,
        nodes.IFDEF,
        nodes.ELIF,
        nodes.ELIFDEF,
        nodes.ELSE,
        nodes.NAMESPACE,
        nodes.LINKAGE,
        nodes.DECLARATION_LIST,
    }
)

# Past this many edits (or this many dirty bytes relative to the file) one full extraction is
# cheaper and simpler than carrying the old list through all of them.
_MAX_STALE_EDITS = 256
_MAX_DIRTY_FRACTION = 1 / 3

ByteRange = tuple[int, int]
"""A closed byte range [start, end]: items that only touch it at an end count as inside."""


def _dirty_after(dirty: tuple[int, int] | None, start: int, old_end: int, new_end: int) -> tuple[int, int]:
    """The span edits touched, after one more edit replacing [start, old_end) with [start, new_end)."""
    if dirty is None:
        return start, new_end
    delta = new_end - old_end
    lo, hi = dirty
    lo = lo if lo < start else (lo + delta if lo >= old_end else start)
    hi = hi + delta if hi >= old_end else max(hi, start)
    return min(lo, start), max(hi, new_end)


def _merge(ranges: Iterable[ByteRange]) -> list[ByteRange]:
    """Sorted, disjoint, non-touching ranges covering the same bytes."""
    merged: list[ByteRange] = []
    for start, end in sorted(ranges):
        if merged and start <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def _widen(root: tree_sitter.Node, start: int, end: int) -> ByteRange:
    """[start, end] grown to the whole top-level items it touches, descending into containers
    (`#ifdef`, namespace, `extern "C"`) that hold it entirely: an edit is re-examined with the whole
    function or declaration around it, and nothing smaller."""
    node = root
    while True:
        first = _first_child_ending_after(node, start)
        if first is None:  # past the last child: trailing space, or a container's end
            return (start, end) if node is root else (node.start_byte, max(end, node.end_byte))
        if first.start_byte <= start and end <= first.end_byte:
            if first.type in _CONTAINER_TYPES:
                node = first
                continue
            if first.is_named or node is root:
                return first.start_byte, first.end_byte
            return node.start_byte, node.end_byte  # a container's own token: `#endif`, `{`
        # the range crosses children or the gaps between them: take every child it reaches
        low, high = min(start, first.start_byte), end
        child: tree_sitter.Node | None = first
        while child is not None and child.start_byte <= end:
            high = max(high, child.end_byte)
            child = child.next_sibling
        return low, high


def _first_child_ending_after(node: tree_sitter.Node, offset: int) -> tree_sitter.Node | None:
    # Node.first_child_for_byte crashes the interpreter (py-tree-sitter 0.26.1) when no child ends
    # after the offset, so that case is ruled out first.
    last = node.child(node.child_count - 1) if node.child_count else None
    if last is None or last.end_byte <= offset:
        return None
    return node.first_child_for_byte(offset)


def _touches(ranges: list[ByteRange], starts: list[int], span: Span) -> bool:
    # `ranges` are merged, so the last one starting at or before span.end reaches furthest right
    index = bisect.bisect_right(starts, span.end) - 1
    return index >= 0 and ranges[index][1] >= span.start


class _Piece(msgspec.Struct, frozen=True):
    """Old-text bytes [low, high] that no edit has touched since; they now sit `delta` bytes on."""

    low: int
    high: int
    delta: int


def _moved_span(span: Span, delta: int) -> Span:
    return Span(span.start + delta, span.end + delta)


def _moved_function(item: FunctionInfo, delta: int) -> FunctionInfo:
    return FunctionInfo(item.name, item.space, _moved_span(item.span, delta), _moved_span(item.name_span, delta))


def _moved_launch(item: LaunchInfo, delta: int) -> LaunchInfo:
    return LaunchInfo(item.kernel, _moved_span(item.span, delta), _moved_span(item.name_span, delta), item.config)


def _moved_include(item: IncludeInfo, delta: int) -> IncludeInfo:
    return IncludeInfo(item.path, _moved_span(item.span, delta))


def _moved_decl(item: SharedDecl, delta: int) -> SharedDecl:
    return SharedDecl(item.name, _moved_span(item.span, delta))


class _StaleConstructs:
    """A construct list of an earlier text, and what the edits since have done to it.

    Tree-sitter's changed ranges mark the bytes whose ancestor nodes differ between the old and the
    new tree; the edits mark the bytes whose text differs. A construct clear of both (by at least a
    byte: an identifier can grow at either end) is the same match as before, only moved, so it is
    carried over; every construct touching them is found again by querying just those regions. Both
    parts are canonical lists, so their merge equals a fresh `extract_constructs`."""

    def __init__(self, base: Constructs, length: int) -> None:
        self.base = base
        self.pieces: list[_Piece] = [_Piece(0, length, 0)]  # sorted by `low`, disjoint
        self.dirty: list[ByteRange] = []  # in current offsets, merged
        self.edits = 0

    def edit(self, start: int, old_end: int, new_end: int, length: int) -> bool:
        """Record one edit (current offsets before it; ``length``: the text's after it). False when
        the old list is no longer worth carrying."""
        delta = new_end - old_end
        self.pieces = [part for piece in self.pieces for part in _split(piece, start, old_end, delta)]
        moved = [
            (_moved_offset(a, start, old_end, new_end, True), _moved_offset(b, start, old_end, new_end, False))
            for a, b in self.dirty
        ]
        self.dirty = _merge([*moved, (start, new_end)])
        self.edits += 1
        return self._worth_carrying(length)

    def reparsed(self, changed: Sequence[ByteRange], length: int) -> bool:
        """Record the ranges whose structure the re-parse after the edits changed (current offsets:
        tree-sitter compares the edited old tree with the new one, over all edits since the last
        parse). False when the old list is no longer worth carrying."""
        self.dirty = _merge([*self.dirty, *changed])
        return self._worth_carrying(length)

    def _worth_carrying(self, length: int) -> bool:
        dirty_bytes = sum(b - a + 1 for a, b in self.dirty)
        return self.edits <= _MAX_STALE_EDITS and dirty_bytes <= length * _MAX_DIRTY_FRACTION

    def resolve(self, tree: tree_sitter.Tree) -> Constructs:
        """The constructs of `tree`, whose text is the old one with all recorded edits applied."""
        root = tree.root_node
        regions = _merge(_widen(root, a, b) for a, b in self.dirty)
        if sum(b - a + 1 for a, b in regions) > root.end_byte * _MAX_DIRTY_FRACTION:
            return extract_constructs(tree)
        # half-open query ranges one byte wider than the closed regions: the query then returns
        # exactly the constructs that touch a region, the complement of what is carried over
        fresh = [extract_constructs(tree, (max(a - 1, 0), b + 1)) for a, b in regions]
        base, update = self.base, functools.partial(self._updated, regions=regions)
        return Constructs(
            functions=update(base.functions, [c.functions for c in fresh], _span_of, _moved_function),
            launches=update(base.launches, [c.launches for c in fresh], _span_of, _moved_launch),
            includes=update(base.includes, [c.includes for c in fresh], _span_of, _moved_include),
            asm_blocks=update(base.asm_blocks, [c.asm_blocks for c in fresh], _itself, _moved_span),
            shared=update(base.shared, [c.shared for c in fresh], _span_of, _moved_decl),
            macros=update(base.macros, [c.macros for c in fresh], _span_of, _moved_decl),
        )

    def _updated(
        self,
        old: list[Item],
        fresh: list[list[Item]],
        span_of: Callable[[Item], Span],
        move: Callable[[Item, int], Item],
        regions: list[ByteRange],
    ) -> list[Item]:
        """The old items clear of every edit and every region, at their new offsets, merged with the
        items re-extracted from the regions (which hold every item touching a region)."""
        pieces = self.pieces
        lows = [piece.low for piece in pieces]
        region_starts = [a for a, _ in regions]
        kept: list[Item] = []
        for item in old:
            span = span_of(item)
            index = bisect.bisect_right(lows, span.start) - 1
            if index < 0 or span.end > pieces[index].high:
                continue  # an edit touched it
            delta = pieces[index].delta
            moved = move(item, delta) if delta else item
            if not _touches(regions, region_starts, span_of(moved)):
                kept.append(moved)
        for part in fresh:
            kept += part
        return _canonical(kept, span_of)


def _split(piece: _Piece, start: int, old_end: int, delta: int) -> list[_Piece]:
    """What is left of `piece` after replacing current bytes [start, old_end) and shifting what
    follows by `delta`; a byte either side of the edit goes too, since a token there can change."""
    low, high = piece.low + piece.delta, piece.high + piece.delta  # current offsets
    if high < start:
        return [piece]
    if low > old_end:
        return [_Piece(piece.low, piece.high, piece.delta + delta)]
    parts = []
    if low <= start - 1:
        parts.append(_Piece(piece.low, start - 1 - piece.delta, piece.delta))
    if old_end + 1 <= high:
        parts.append(_Piece(old_end + 1 - piece.delta, piece.high, piece.delta + delta))
    return parts


def _moved_offset(offset: int, start: int, old_end: int, new_end: int, is_start: bool) -> int:
    """Where an offset goes when current bytes [start, old_end) become [start, new_end); one inside
    the replaced bytes goes to the near end of the new ones (the caller marks those dirty anyway)."""
    if offset < start:
        return offset
    if offset > old_end:
        return offset + new_end - old_end
    return start if is_start else new_end
