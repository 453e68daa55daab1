"""The document model: incremental sync and re-parse, UTF-16 positions, CUDA construct queries."""

from __future__ import annotations

import re

import pytest
import tree_sitter
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cass_lsp.server import symbols
from cass_lsp.syntax import document, prepass
from cass_lsp.syntax import parsing as syntax
from cass_lsp.syntax.document import Constructs, CudaDocument, TextChange, extract_constructs, is_cuda_document
from cass_lsp.translate.api_uses import api_use_at, api_uses

SOURCE = """#include <cuda_runtime.h>
#include "helpers.cuh"
// héllo wörld 😀 comment
template <typename T>
__global__ void __launch_bounds__(256) scale(T* x, T a, int n) {
  __shared__ T tile[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
  asm volatile("bar.sync 0;");
}
__device__ float* pick(float* p) { return p; }
__host__ __device__ float sq(float v) { return v * v; }
static void host_only() {}
int main() {
  float* d;
  cudaMalloc(&d, 16);
  scale<float><<<1, 4>>>(d, 2.0f, 4);
  cudaStream_t s;
  scale<<<dim3(2), dim3(2), 0, s>>>(d, 1.0f, 4);
  cudaFree(d);
}
"""


def doc(text: str = SOURCE) -> CudaDocument:
    return CudaDocument("file:///w/k.cu", text, 1)


def test_functions_with_execution_spaces() -> None:
    functions = {(f.name, f.space) for f in doc().constructs.functions}
    assert functions == {
        ("scale", "global"),
        ("pick", "device"),
        ("sq", "host_device"),
        ("host_only", "host"),
        ("main", "host"),
    }


def test_launches_includes_shared_asm_and_api_uses() -> None:
    d = doc()
    c = d.constructs
    assert [(x.kernel, x.config) for x in c.launches] == [
        ("scale", "<<<1, 4>>>"),
        ("scale", "<<<dim3(2), dim3(2), 0, s>>>"),
    ]
    assert [i.path for i in c.includes] == ["cuda_runtime.h", "helpers.cuh"]
    assert [s.name for s in c.shared] == ["tile"]
    assert len(c.asm_blocks) == 1
    uses = [(u.name, u.kind) for u in api_uses(d)]
    assert ("cudaMalloc", "call") in uses and ("cudaFree", "call") in uses
    assert ("cudaStream_t", "type") in uses


def test_enclosing_queries() -> None:
    d = doc()
    inside_kernel = d.source.index(b"x[i] *= a")
    function = d.function_at(inside_kernel)
    assert function is not None and function.name == "scale"
    launch_offset = d.source.index(b"scale<float><<<")
    launch = d.launch_at(launch_offset + 3)
    assert launch is not None and launch.kernel == "scale"
    assert d.function_at(launch_offset).name == "main"  # type: ignore[union-attr]
    use = api_use_at(d, d.source.index(b"cudaMalloc") + 2)
    assert use is not None and use.name == "cudaMalloc"
    assert [k.name for k in d.kernels()] == ["scale"]
    assert len(d.launches_of("scale")) == 2


def test_utf16_positions_round_trip() -> None:
    d = doc()
    line = 2  # the comment with é, ö and an astral emoji (2 UTF-16 units)
    text = d.line_text(line)
    assert text.startswith("// héllo")
    emoji_col = text.index("😀")
    after_emoji = emoji_col + 2
    offset = d.offset_at((line, after_emoji))
    assert d.source[offset:].startswith(b" comment")
    assert d.position_at(offset) == (line, after_emoji)


def test_positions_past_the_end_clamp() -> None:
    d = doc()
    assert d.offset_at((0, 999)) == d.source.index(b"\n")
    assert d.offset_at((10_000, 3)) == len(d.source)
    assert d.offset_at((-1, 0)) == 0


def test_incremental_edit_matches_full_parse() -> None:
    d = doc()
    start = d.position_at(d.source.index(b"scale(T* x"))
    d.apply_changes([TextChange("resize", (start, (start[0], start[1] + 5)))], 2)
    assert "resize(T* x" in d.text
    assert str(d.tree.root_node) == str(syntax.parse(d.source).root_node)  # type: ignore[union-attr]
    assert ("resize", "global") in {(f.name, f.space) for f in d.constructs.functions}


def test_full_replacement_and_out_of_order_version_keep_text() -> None:
    d = doc()
    d.apply_changes([TextChange("__global__ void k() {}\n")], 5)
    d.apply_changes([TextChange("x", ((0, 0), (0, 0)))], 3)  # stale version number: still applied
    assert d.text == "x__global__ void k() {}\n"
    assert d.version == 3


def test_bad_input_is_kept_not_lost() -> None:
    for text in ["", "\x00\x00__global__ void k(){}", "/* unterminated", 'const char* s = "open', "\ud800 lone"]:
        d = doc(text)
        assert d.text == text
        assert d.tree is not None


def test_large_document_keeps_text_without_parsing() -> None:
    big = "// filler\n" * 1000
    d = CudaDocument("file:///w/big.cu", big, 1, max_parse_bytes=1000)
    assert d.too_large and d.tree is None and d.constructs.functions == []
    d.apply_changes([TextChange("x", ((0, 0), (0, 0)))], 2)
    assert d.text == "x" + big


def test_document_selection() -> None:
    assert is_cuda_document("file:///a/k.cu", "cpp")
    assert is_cuda_document("file:///a/k.cuh", "cpp")
    assert is_cuda_document("file:///a/k.hip", "hip")
    assert is_cuda_document("file:///a/k.txt", "cuda")
    assert not is_cuda_document("file:///a/k.cpp", "cpp")


# ---------------------------------------------------------------- property: incremental == full
def _utf16_position(text: str, index: int) -> tuple[int, int]:
    line = text.count("\n", 0, index)
    line_start = text.rfind("\n", 0, index) + 1
    return line, len(text[line_start:index].encode("utf-16-le")) // 2


ALPHABET = st.sampled_from([*'ab_ {}();\n\t*/"<>#é😀', "__global__ ", "<<<1,2>>>", "/*", "*/", "\r\n"])


@st.composite
def edits(draw: st.DrawFn, text: str) -> tuple[int, int, str]:
    start = draw(st.integers(0, len(text)))
    end = draw(st.integers(start, min(len(text), start + 12)))
    insert = "".join(draw(st.lists(ALPHABET, max_size=6)))
    return start, end, insert


def _byte_point(data: bytes, offset: int) -> tuple[int, int]:
    return data.count(b"\n", 0, offset), offset - (data.rfind(b"\n", 0, offset) + 1)


def _prepared(source: bytes) -> bytes:
    return prepass.prepare(source, prepass.scan(source))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_edit_sequences_reparse_like_a_full_parse(data: st.DataObject) -> None:
    """The document's incremental re-parse equals tree-sitter's own incremental parse with edits
    computed independently from Python strings, and equals a full parse whenever the result is free of
    syntax errors (with errors, tree-sitter's recovery may legitimately differ between the two)."""
    text = SOURCE
    d = doc(text)
    parser = syntax.new_parser()
    # the document parses its text as the macro pre-pass leaves it, and so does the reference
    prepared = _prepared(text.encode("utf-8"))
    reference = parser.parse(prepared)
    for _ in range(data.draw(st.integers(1, 8))):
        start, end, insert = data.draw(edits(text))
        d.apply_changes([TextChange(insert, (_utf16_position(text, start), _utf16_position(text, end)))])
        old, new_text = text.encode("utf-8"), text[:start] + insert + text[end:]
        new = new_text.encode("utf-8")
        start_byte, old_end = len(text[:start].encode("utf-8")), len(text[:end].encode("utf-8"))
        new_end = start_byte + len(insert.encode("utf-8"))
        reference.edit(
            start_byte=start_byte,
            old_end_byte=old_end,
            new_end_byte=new_end,
            start_point=_byte_point(old, start_byte),
            old_end_point=_byte_point(old, old_end),
            new_end_point=_byte_point(new, new_end),
        )
        edited = prepared[:start_byte] + insert.encode("utf-8") + prepared[old_end:]
        prepared = _prepared(new)
        for lo, hi in prepass.differences(edited, prepared):  # what the pre-pass rewrote: same-length edits
            reference.edit(start_byte=lo, old_end_byte=hi, new_end_byte=hi, start_point=_byte_point(new, lo),
                           old_end_point=_byte_point(new, hi), new_end_point=_byte_point(new, hi))
        reference = parser.parse(prepared, reference)
        text = new_text
        assert d.text == text
        assert str(d.tree.root_node) == str(reference.root_node)  # type: ignore[union-attr]
    full = syntax.parse(text.encode("utf-8"))
    if not full.root_node.has_error:
        assert str(d.tree.root_node) == str(full.root_node)  # type: ignore[union-attr]
        assert d.constructs == CudaDocument("file:///w/k.cu", text).constructs


TOP_LEVEL_LINES = [0, 1, 2, 3, 10, 11, 12, 13]
DECLARATIONS = [
    "__global__ void extra(int* p) { p[0] = 1; }",
    "__device__ int twice(int v) { return 2 * v; }",
    "// note é😀",
    "static int counter = 0;",
]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(TOP_LEVEL_LINES), st.sampled_from(DECLARATIONS)), min_size=1, max_size=6))
def test_error_free_edit_sequences_equal_a_full_parse(insertions: list[tuple[int, str]]) -> None:
    d = doc(SOURCE)
    lines = SOURCE.splitlines(keepends=True)
    for line, declaration in insertions:
        d.apply_changes([TextChange(declaration + "\n", ((line, 0), (line, 0)))])
        lines.insert(line, declaration + "\n")
    text = "".join(lines)
    assert d.text == text
    full = syntax.parse(text.encode("utf-8"))
    assert not full.root_node.has_error
    assert str(d.tree.root_node) == str(full.root_node)  # type: ignore[union-attr]
    assert d.constructs == CudaDocument("file:///w/k.cu", text).constructs


# ---------------------------------------------------------------- incremental construct extraction
STRUCTURED = """#include <cuda_runtime.h>
#define N 4
__global__ void k0(float* x) { __shared__ float s[32]; x[0] = 1; }
void h0(float* p) { k0<<<1, 32>>>(p); }
#ifdef X
__device__ float d0(float v) { return v; }
#endif
namespace n {
__global__ void k1(float* x) { asm volatile("bar.sync 0;"); }
}
extern "C" { void h1(float* p) { n::k1<<<2, 64>>>(p); } }
// é😀
__host__ __device__ int hd(int v) { return v; }
"""

FRAGMENTS = [
    "__global__ void k%d(float* x) { x[0] = 1; }\n",
    "k%d<<<1, 32>>>(p);",
    "#define M%d 1\n",
    "#ifdef X\n",
    "#endif\n",
    "__shared__ float s[32];",
    "namespace m {\n",
    "__device__ ",
    "}",
    "{",
    "\n",
]
CHARACTERS = st.text(alphabet=st.sampled_from([*"abk_ ;{}()<>#*/\n\"'é😀", "0"]), min_size=1, max_size=4)


def _assert_constructs_are_fresh(d: CudaDocument) -> None:
    """The construct list equals a full extraction of the document's tree, and of a parse from
    scratch when the text is free of syntax errors. (With errors, tree-sitter's incremental parse may
    legitimately recover differently from a fresh one, see above; the old, always-full extraction
    answered from the document's own tree too.)"""
    assert d.tree is not None
    assert d.constructs == extract_constructs(d.tree)
    fresh = syntax.parse(d.source)
    if not fresh.root_node.has_error:
        assert d.constructs == extract_constructs(fresh)


@st.composite
def construct_edits(draw: st.DrawFn, text: str) -> tuple[int, int, str]:
    """(start, end, replacement) in str indices: the edits an editor makes to CUDA code."""
    kind = draw(st.sampled_from(["fragment", "delete", "characters", "rename", "lines"]))
    names = [m.span(1) for m in re.finditer(r"void (\w+)\(", text)]
    if kind == "rename" and names:
        start, end = draw(st.sampled_from(names))
        return start, end, draw(st.sampled_from(["k", "renamed", "k0", ""]))
    if kind == "lines" and "\n" in text:
        starts = [0] + [m.end() for m in re.finditer("\n", text)]
        first = draw(st.integers(0, len(starts) - 1))
        last = draw(st.integers(first, min(first + 3, len(starts) - 1)))
        return starts[first], starts[last], ""
    start = draw(st.integers(0, len(text)))
    if kind == "delete":
        return start, draw(st.integers(start, min(len(text), start + 30))), ""
    if kind == "characters":
        return start, draw(st.integers(start, min(len(text), start + 2))), draw(CHARACTERS)
    fragment = draw(st.sampled_from(FRAGMENTS))
    return start, start, fragment % draw(st.integers(0, 9)) if "%d" in fragment else fragment


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_constructs_after_each_edit_equal_a_fresh_extraction(data: st.DataObject) -> None:
    """After didChanges (of one to three range changes each) the incrementally maintained construct
    list equals a full extraction, lists compared exactly, order included. The tree and constructs
    are read after some didChanges only, as an editor's requests come: edits (and the tree's
    re-parse, which waits for the next read) pile up between two reads."""
    text = SOURCE + STRUCTURED
    d = doc(text)
    _assert_constructs_are_fresh(d)
    for round_ in range(rounds := data.draw(st.integers(1, 10))):
        changes = []
        for _ in range(data.draw(st.integers(1, 3))):
            start, end, insert = data.draw(construct_edits(text))
            changes.append(TextChange(insert, (_utf16_position(text, start), _utf16_position(text, end))))
            text = text[:start] + insert + text[end:]
        d.apply_changes(changes)
        assert d.text == text
        if round_ == rounds - 1 or data.draw(st.booleans()):
            _assert_constructs_are_fresh(d)


def _replace(d: CudaDocument, old: bytes, new: str) -> None:
    start = d.source.index(old)
    d.apply_changes([TextChange(new, (d.position_at(start), d.position_at(start + len(old))))])


def test_edits_wait_for_a_read_to_reparse() -> None:
    """A keystroke only edits the tree; the first read after a burst re-parses once (fifty open
    documents edited each round cost fifty parses a round before, most never read)."""
    d = doc(STRUCTURED)
    assert d.constructs.functions
    real = d._parser
    parses = []

    class Counting:
        def parse(self, *args: object) -> object:
            parses.append(args)
            return real.parse(*args)  # type: ignore[arg-type]

    d._parser = Counting()  # type: ignore[assignment]
    for _ in range(20):
        _replace(d, b"x[0] = 1;", "x[0] = 2;")
        _replace(d, b"x[0] = 2;", "x[0] = 1;")
    assert parses == []
    assert d.constructs == extract_constructs(syntax.parse(d.source))
    assert len(parses) == 1
    assert d.tree is not None and d.snapshot().tree is not None
    assert len(parses) == 1


def test_renaming_a_kernel_in_place_updates_its_name() -> None:
    d = doc(STRUCTURED)
    assert "k0" in {f.name for f in d.constructs.functions}
    _replace(d, b"k0(float* x)", "zoom(float* x)")
    names = {f.name for f in d.constructs.functions}
    assert "zoom" in names and "k0" not in names
    _assert_constructs_are_fresh(d)


def test_a_function_added_inside_an_ifdef_is_found() -> None:
    d = doc(STRUCTURED)
    assert d.constructs.functions
    _replace(d, b"#endif", "__global__ void added(int* p) { p[0] = 0; }\n#endif")
    assert ("added", "global") in {(f.name, f.space) for f in d.constructs.functions}
    _assert_constructs_are_fresh(d)


def test_changing_device_to_global_changes_the_space() -> None:
    d = doc(STRUCTURED)
    assert ("d0", "device") in {(f.name, f.space) for f in d.constructs.functions}
    _replace(d, b"__device__ float d0", "__global__ float d0")
    spaces = {f.name: f.space for f in d.constructs.functions}
    assert spaces["d0"] == "global"
    _assert_constructs_are_fresh(d)


def test_an_edit_re_extracts_only_around_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """The point of the stale list: after a small edit the query runs over byte ranges, not over the
    whole tree (and not at all until someone reads the constructs)."""
    text = "".join(f"__global__ void k{i}(float* x) {{ x[0] = {i}; }}\n" for i in range(200))
    d = doc(text)
    assert len(d.constructs.functions) == 200
    ranges: list[tuple[int, int] | None] = []
    real = document.extract_constructs

    def spy(tree: tree_sitter.Tree, byte_range: tuple[int, int] | None = None) -> Constructs:
        ranges.append(byte_range)
        return real(tree, byte_range)

    monkeypatch.setattr(document, "extract_constructs", spy)
    _replace(d, b"x[0] = 100;", "x[0] = 7;")
    assert ranges == []
    assert [f.name for f in d.constructs.functions] == [f"k{i}" for i in range(200)]
    assert len(ranges) == 1 and ranges[0] is not None and ranges[0][1] - ranges[0][0] < 100
    assert d.constructs == real(syntax.parse(d.source))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_outline_after_edits_equals_one_built_afresh(data: st.DataObject) -> None:
    """documentSymbol reuses the previous reply's symbols where nothing about them changed; what it
    returns must still equal an outline built with nothing to reuse. (Multi-line functions: an edit
    inside one changes its children but not its range.)"""
    text = SOURCE + STRUCTURED
    d = doc(text)
    symbols.document_symbols(d)
    for _ in range(data.draw(st.integers(1, 6))):
        start, end, insert = data.draw(construct_edits(text))
        d.apply_changes([TextChange(insert, (_utf16_position(text, start), _utf16_position(text, end)))])
        text = text[:start] + insert + text[end:]
        outline = symbols.document_symbols(d)
        del symbols._outlines[d]
        assert outline == symbols.document_symbols(d)
