"""The pre-pass reads the macros of the project's headers, not only the file's own: a unit that
uses its library's portability macros (``LATTICE_HOST_DEVICE``, ``LATTICE_RESTRICT``, pragma
macros built on ``_Pragma``, ``extern "C"``, an error-check statement macro used without its
semicolon) parses whole when the headers are read, where it had parse-error regions. The project
under realcode/headermacros is shaped like the applications that showed it (its own Makefile,
include/ and src/); the CLI's port of it is compiled in tests/toolchain/test_prepass_headers.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cass_lsp.syntax import nodes, parsing, prepass
from cass_lsp.translate import TargetProfile, translate

PROJECT = Path(__file__).parent / "realcode" / "headermacros"
HEADERS = ("include/lattice/config.h", "include/lattice/stencil.h")


def _errors(source: bytes, headers: list[bytes]) -> list[int]:
    """The rows (1-based) of ERROR and MISSING nodes."""
    found, stack = [], [parsing.parse_source(source, headers=headers).root_node]
    while stack:
        node = stack.pop()
        if node.type == nodes.ERROR or node.is_missing:
            found.append(node.start_point.row + 1)
        stack.extend(c for c in node.children if c.has_error or c.is_missing)
    return sorted(found)


def _headers() -> list[bytes]:
    return [(PROJECT / h).read_bytes() for h in HEADERS]


def test_the_units_parse_whole_with_their_headers_macros() -> None:
    stencil = (PROJECT / "src" / "stencil.cu").read_bytes()
    assert _errors(stencil, []), "the fixture no longer needs its headers' macros"
    for path in ("src/stencil.cu", "src/main.cu", "include/lattice/stencil.h"):
        assert _errors((PROJECT / path).read_bytes(), _headers()) == [], path


def test_what_each_kind_of_header_macro_becomes() -> None:
    source = (b"LATTICE_EXTERN_C LATTICE_HOST_DEVICE float f(const float* LATTICE_RESTRICT p);\n"
              b"void g() {\n  LATTICE_UNROLL(4)\n  for (;;) {}\n  LATTICE_NO_UNROLL\n  for (;;) {}\n"
              b"  LATTICE_CHECK(cudaDeviceSynchronize())\n  g();\n}\n")
    macros = prepass.scan(source, _headers())
    assert macros.attributes[b"LATTICE_EXTERN_C"] == b'extern "C"'.ljust(len("LATTICE_EXTERN_C"))
    assert macros.attributes[b"LATTICE_HOST_DEVICE"] == b"__host__ __device__"
    assert macros.attributes[b"LATTICE_RESTRICT"] == b"__restrict__    "
    assert macros.attributes[b"LATTICE_NO_UNROLL"].strip() == b""  # a pragma: nothing the grammar reads
    assert macros.calls == {b"LATTICE_UNROLL"} and macros.statements == {b"LATTICE_CHECK": True}
    prepared = prepass.prepare(source, macros)
    assert len(prepared) == len(source) and b"  LATTICE_CHECK(cudaDeviceSynchronize())\n; g();" in prepared
    assert b"LATTICE_UNROLL" not in prepared


def test_a_headers_macros_are_read_only_where_the_file_names_them() -> None:
    assert prepass.scan(b"int main() { return 0; }\n", _headers()) == prepass.scan(b"int main() { return 0; }\n")


def test_translation_with_the_headers_reports_no_parse_error() -> None:
    stencil = (PROJECT / "src" / "stencil.cu").read_text()
    profile = TargetProfile("gfx1100", "5.2")
    alone = translate(stencil, profile)
    assert [f for f in alone.findings if f.code == "parse-error"]
    result = translate(stencil, profile, headers=[h.decode() for h in _headers()])
    assert [f for f in result.findings if f.code == "parse-error"] == []
    assert "hipGetLastError()" in result.text and "hipDeviceSynchronize()" in result.text


# Constructs of the application corpus (benchmarks/bench_parse_health.py) the grammar misread, each
# in the shape that showed it; the pre-pass rewrites them at the same length.
_MISREAD = {
    "a pragma macro of a header before a loop": (
        b"#define LIB_DO_PRAGMA(x) _Pragma(#x)\n#define LIB_UNROLL LIB_DO_PRAGMA(unroll)\n",
        b"__device__ void f(float* v) {\n  LIB_UNROLL\n  for (int i = 0; i < 4; ++i) v[i] = 0;\n}\n"),
    "an _Pragma attribute macro": (
        b"#if defined(__CUDACC__)\n#define LIB_PRAGMA_UNROLL _Pragma(\"unroll\")\n#else\n#define LIB_PRAGMA_UNROLL\n#endif\n",
        b"__device__ void f(float* v) {\n  LIB_PRAGMA_UNROLL\n  for (int i = 0; i < 4; ++i) v[i] = 0;\n}\n"),
    "declaration macros made of declaration macros, two on a line": (
        b"#define DEFINE_LOAD(T) template <> __device__ T load<T>(const T* p) { return *p; }\n"
        b"#define DEFINE_LOADS(A, B) DEFINE_LOAD(A) DEFINE_LOAD(B)\n",
        b"template <typename T> __device__ T load(const T* p);\nDEFINE_LOADS(int, float) DEFINE_LOADS(double, long)\n"),
    "an object-like macro of member declarations": (
        b"#define VEC_BODY \\\n  using value_type = T; \\\n  __host__ __device__ T& operator[](int i) { return e[i]; }\n",
        b"template <typename T> struct vec {\n  VEC_BODY\n  T e[4];\n};\n"),
    "a conditional group inside an initializer": (
        b"",
        b"__device__ int pack(bool tma) {\n  constexpr int Unroll =\n#if __CUDA_ARCH__ >= 900\n    tma ? 8 :\n#endif\n"
        b"    4;\n  return Unroll;\n}\n"),
    "a conditional group holding a statement's head": (
        b"",
        b"void run(int k) {\n#if defined(ENABLE_FP16)\n  if (k < 4)  // only some kernels\n#endif\n  {\n    k++;\n  }\n}\n"),
    "alternative bodies of a declared function": (
        b"",
        b"struct Model {\n  virtual void forward(int n)\n#if defined(NO_FWD)\n  { throw 1; }\n#else\n  = 0;\n#endif\n};\n"),
    "C++'s alternative tokens in a directive": (
        b"",
        b"#if defined(_WIN32) or defined(__APPLE__)\nint host_only;\n#endif\n"),
    "unsigned(x) before < and after return": (
        b"",
        b"__device__ unsigned f(int e, int n) {\n  if (unsigned(e) < unsigned(n)) return 1;\n  return unsigned(e + n);\n}\n"),
    "an empty braced default argument": (
        b"",
        b"void allocate(unsigned n, const std::vector<std::pair<unsigned, unsigned>>& sizes = {});\n"),
}


@pytest.mark.parametrize("case", sorted(_MISREAD))
def test_what_the_grammar_misread_now_parses(case: str) -> None:
    header, source = _MISREAD[case]
    headers = [header] if header else []
    assert parsing.parse(source).root_node.has_error, "the grammar reads it without help now"
    prepared = prepass.prepare(source, prepass.scan(source, headers))
    assert len(prepared) == len(source) and prepared.count(b"\n") == source.count(b"\n")
    assert _errors(source, headers) == []
