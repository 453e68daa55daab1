"""One open CUDA/HIP file: its text, its tree-sitter tree, and what CUDA constructs it holds.

The text is kept as UTF-8 bytes because tree-sitter works in bytes; LSP positions arrive in UTF-16
code units and are converted at the edge (`offset_at` / `position_at`). Edits re-parse incrementally.
Nothing here knows LSP types: positions are plain (line, character) tuples.
"""

from __future__ import annotations

import bisect
import logging
from collections.abc import Iterable
from typing import Literal

import msgspec
import tree_sitter

from cass_lsp import syntax

log = logging.getLogger(__name__)

CUDA_EXTENSIONS = frozenset({".cu", ".cuh", ".hip"})
CUDA_LANGUAGE_IDS = frozenset({"cuda", "cuda-cpp", "hip"})

DEFAULT_MAX_PARSE_BYTES = 4_000_000

Position = tuple[int, int]
"""(line, character) with the character counted in UTF-16 code units, as LSP does."""

ExecutionSpace = Literal["global", "device", "host", "host_device"]
ApiKind = Literal["call", "type", "identifier", "macro"]


class Span(msgspec.Struct, frozen=True):
    start: int
    end: int

    def contains(self, offset: int) -> bool:
        return self.start <= offset <= self.end


class FunctionInfo(msgspec.Struct, frozen=True):
    name: str
    space: ExecutionSpace
    span: Span
    name_span: Span


class LaunchInfo(msgspec.Struct, frozen=True):
    kernel: str
    span: Span
    name_span: Span
    config: str


class IncludeInfo(msgspec.Struct, frozen=True):
    path: str
    span: Span


class SharedDecl(msgspec.Struct, frozen=True):
    name: str
    span: Span


class ApiUse(msgspec.Struct, frozen=True):
    name: str
    kind: ApiKind
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
    return any(lower.endswith(ext) for ext in CUDA_EXTENSIONS)


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
        self.tree: tree_sitter.Tree | None = None
        self._constructs: Constructs | None = None
        self._api_uses: list[ApiUse] | None = None
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
        self._source = _encode(text)
        self._text = text
        self._invalidate_lines_from(0)
        self.tree = None
        self._reparse()

    def _replace_range(self, start: Position, end: Position, new_text: str) -> None:
        start_byte = self.offset_at(start)
        end_byte = max(start_byte, self.offset_at(end))
        new_bytes = _encode(new_text)
        start_point = self._point_at(start_byte)
        old_end_point = self._point_at(end_byte)
        self._source = self._source[:start_byte] + new_bytes + self._source[end_byte:]
        self._text = None
        self._invalidate_lines_from(start_byte)
        if self.tree is not None and not self.too_large:
            newlines = new_bytes.count(b"\n")
            if newlines:
                new_end_point = (start_point[0] + newlines, len(new_bytes) - new_bytes.rfind(b"\n") - 1)
            else:
                new_end_point = (start_point[0], start_point[1] + len(new_bytes))
            self.tree.edit(
                start_byte=start_byte,
                old_end_byte=end_byte,
                new_end_byte=start_byte + len(new_bytes),
                start_point=start_point,
                old_end_point=old_end_point,
                new_end_point=new_end_point,
            )
        else:
            self.tree = None
        self._reparse()

    def _reparse(self) -> None:
        self._constructs = None
        self._api_uses = None
        if self.too_large:
            log.warning(
                "%s: %d bytes is over the parse limit (%d); syntax features are off for it",
                self.uri,
                len(self._source),
                self.max_parse_bytes,
            )
            self.tree = None
            return
        if self.tree is None:
            self.tree = self._parser.parse(self._source)
        else:
            self.tree = self._parser.parse(self._source, self.tree)

    # ------------------------------------------------------------------ positions
    def _invalidate_lines_from(self, byte_offset: int) -> None:
        # Line starts at or before the edit stay valid; the rest are rebuilt lazily on demand.
        keep = bisect.bisect_right(self._line_starts, byte_offset)
        del self._line_starts[keep:]
        self._lines_known_to = self._line_starts[-1]

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

    def _point_at(self, offset: int) -> tuple[int, int]:
        self._ensure_lines(byte_offset=offset)
        line = bisect.bisect_right(self._line_starts, offset) - 1
        return line, offset - self._line_starts[line]

    # ------------------------------------------------------------------ constructs
    @property
    def constructs(self) -> Constructs:
        if self._constructs is None:
            self._constructs = extract_constructs(self.tree) if self.tree else EMPTY_CONSTRUCTS
        return self._constructs

    @property
    def api_uses(self) -> list[ApiUse]:
        if self._api_uses is None:
            self._api_uses = extract_api_uses(self.tree) if self.tree else []
        return self._api_uses

    def function_at(self, offset: int, end: int | None = None) -> FunctionInfo | None:
        """The innermost function definition containing [offset, end]. Without a current construct
        list it queries only the tree around the offset: rebuilding the whole list after an edit
        costs tens of milliseconds on a large file, too much for a code-action or hover request."""
        end = offset if end is None else end
        if self._constructs is not None:
            functions = self._constructs.functions
        elif self.tree is not None:
            functions = extract_constructs(self.tree, (offset, max(end, offset + 1))).functions
        else:
            return None
        best: FunctionInfo | None = None
        for function in functions:
            if function.span.start <= offset and end <= function.span.end and (
                best is None or function.span.end - function.span.start < best.span.end - best.span.start
            ):
                best = function
        return best

    def launch_at(self, offset: int) -> LaunchInfo | None:
        return next((launch for launch in self.constructs.launches if launch.span.contains(offset)), None)

    def api_use_at(self, offset: int) -> ApiUse | None:
        return next((use for use in self.api_uses if use.span.contains(offset)), None)

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
            kernel = caps["launch.name"][0] if "launch.name" in caps else launch.child_by_field_name("function")
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
        functions=functions,
        launches=launches,
        includes=includes,
        asm_blocks=asm_blocks,
        shared=shared,
        macros=macros,
    )


_API_CAPTURE_KINDS: tuple[tuple[str, ApiKind], ...] = (
    ("api.call", "call"),
    ("api.type", "type"),
    ("api.identifier", "identifier"),
)


def extract_api_uses(tree: tree_sitter.Tree) -> list[ApiUse]:
    """Identifiers the CUDA<->HIP API tables know (runtime, driver, libraries, device functions)."""
    from cass_lsp.translate import lookup

    found: dict[int, ApiUse] = {}
    caps = syntax.captures("api", tree.root_node)
    for capture, kind in _API_CAPTURE_KINDS:
        for node in caps.get(capture, []):
            name = _text(node)
            # a call capture is more specific than the bare identifier capture of the same node
            if lookup(name) is not None and (
                node.start_byte not in found or found[node.start_byte].kind == "identifier"
            ):
                found[node.start_byte] = ApiUse(name, kind, _span(node))
    return sorted(found.values(), key=lambda use: use.span.start)
