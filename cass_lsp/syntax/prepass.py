"""Macro-aware pre-pass: the bytes tree-sitter parses, closer to what nvcc's preprocessor gives the compiler.

tree-sitter-cuda does not expand macros, so code written around them misparses: an attribute-like
macro in a declaration (``MYLIB_INLINE static void f()``, ``CUTLASS_HOST_DEVICE``), a statement
macro used without its semicolon (``GUARD(cudaMemcpy(...))`` line after line), ``#if``/``#else``
branches that each open a brace. The pre-pass rewrites those spots in a copy of the source **of the
same length, with every newline where it was**, so every node's byte offset and row/column is exact
in the original and nothing maps positions back.

Why a pre-pass and not a grammar fork: a grammar cannot expand macros either (it would need the
definitions, which live in headers), a fork under ``grammars/`` would need a C compiler and the
tree-sitter CLI at setup on every machine and a rebase on every upstream release, and most of what
defeats the parser in real code (``bench_parse_health.py``) is macros and conditionals, not C++ the
grammar lacks. A same-length rewrite keeps incremental parsing as it is: the document prepares
again only the lines around local edits (``local_edit``, ``prepare_window``) and tells the tree
where the preparation changed away from an edit (``differences``).

The macros are the file's own and those of the project's headers (``scan(source, headers)``: the
caller passes their texts, as ``cass-lsp translate`` does for a tree's units; a header's macro
counts where the file names it).

What it rewrites:

- attribute-like object macros (a ``#define NAME body`` whose body is only qualifiers, attributes,
  pragmas, ``extern "C"`` or nothing; and well-known library spellings, ``KNOWN``) become their
  expansion padded with spaces, pragmas left out, or, where it does not fit, the execution-space
  qualifier that fits (the rest, ``inline`` and the like, matters to no feature), or spaces;
  ``__align__(n)``, pragma macros (``KNOWN_CALLS``) and function-like macros whose body is only
  pragmas or attributes (``DO_PRAGMA(x) _Pragma(#x)``) become spaces;
- a statement macro (a ``#define`` whose body is a block, ``do {...} while (0)``, an ``if``/``for``
  or ends with ``;``, also where another ``#if`` branch defines it empty; and the error-check macros of
  ``KNOWN_STATEMENTS``) invoked first on its line
  and not followed by ``;`` gets one in the first blank byte after it (the next line's indentation);
  none is added where no blank byte is left (``GUARD(x)`` right before a ``}`` in column 0);
- a function-like macro that expands to declarations (or to such macros), invoked first on its
  line (or after ``extern``, or after another one on its line), an object-like one holding
  declarations alone on its line, and a header's macro invoked alone on a line at column 0 and
  followed by no body, become spaces: the grammar cannot read declarations it does not see;
- a conditional group whose branches split a statement or a list (unbalanced braces or
  parentheses, a dangling ``else``, parameters under ``#ifdef``, part of an expression, a
  statement's head, a declared function's alternative bodies) is read as its ``#if`` branch: the
  directive lines and the other branches become spaces (``set_aside`` lists those branches; the
  translator renames their API names by name and says so);
- a braced launch dimension (``k<<<g, {32, 8, 1}, 0, s>>>``) is read as parenthesized;
- a macro between or after string literals (``"%" PRId64 "\\n"``, ``"ld." PTX_SPACE ".u64"``,
  ``"ARCH=" STR(ARCH)``: a name with a capital letter, its arguments too) becomes spaces, leaving
  adjacent literals, which the grammar reads (``_string_macros``);
- extended lambdas' ``__device__``/``__host__``, ``typename`` before a dependent name in an
  expression, ``class`` in ``template class X<T>;``, an ``__attribute__`` in ``using X = ...``,
  ``__restrict``, keyword types in ``typeid(...)``, ``unsigned(x)`` before ``<`` or after
  ``return``, a ``= {}`` default argument, and ``or``/``and``/``not`` in ``#if`` lines take a form
  the grammar reads.

The translator reads names at rewritten spots by position (``changed`` tells where a prepared
buffer differs from the original) and translates them by name, as in an unparsable region.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from typing import NamedTuple

# Patterns are compiled on first use (re's own cache): the module is on the CLI's start-up path.

# Library spellings seen in real CUDA/HIP code, with what they expand to on Linux (inline and
# visibility attributes omitted: no feature reads them).
KNOWN: dict[bytes, bytes] = {
    b"CUDART_CB": b"",
    b"CUTLASS_HOST_DEVICE": b"__host__ __device__",
    b"CUTLASS_DEVICE": b"__device__",
    b"CUTLASS_HOST": b"__host__",
    b"CUTLASS_GLOBAL": b"__global__",
    b"CUTLASS_PRAGMA_UNROLL": b"",
    b"CUTLASS_PRAGMA_NO_UNROLL": b"",
    b"CUTLASS_UNUSED_ATTRIBUTE": b"",
    b"CUTE_HOST_DEVICE": b"__host__ __device__",
    b"CUTE_DEVICE": b"__device__",
    b"CUTE_HOST": b"__host__",
    b"CUTE_UNROLL": b"",
    b"CUTE_NO_UNROLL": b"",
    b"CUTE_INLINE_CONSTANT": b"static constexpr",
    b"CUTE_STL_NAMESPACE_IS_CUDA_STD": b"",
    b"ROCPRIM_DEVICE": b"__device__",
    b"ROCPRIM_HOST": b"__host__",
    b"ROCPRIM_HOST_DEVICE": b"__host__ __device__",
    b"ROCPRIM_KERNEL": b"__global__",
    b"ROCPRIM_INLINE": b"inline",
    b"ROCPRIM_FORCE_INLINE": b"inline",
    b"ROCPRIM_SHARED_MEMORY": b"__shared__",
    b"HIPCUB_DEVICE": b"__device__",
    b"HIPCUB_HOST_DEVICE": b"__host__ __device__",
    b"HIPCUB_RUNTIME_FUNCTION": b"",
    b"CUB_RUNTIME_FUNCTION": b"",
    b"_CCCL_HOST_DEVICE": b"__host__ __device__",
    b"_CCCL_DEVICE": b"__device__",
    b"CUTLASS_GRID_CONSTANT": b"",
    b"ROCPRIM_UNROLL": b"",
    b"ROCPRIM_CLANG_SUPPRESS_WARNING_POP": b"",
    b"ROCPRIM_IF_CONSTEXPR": b"constexpr",
    b"GGML_CUDA_RESTRICT": b"__restrict__",
    b"VKAPI_ATTR": b"",
    b"VKAPI_CALL": b"",
    b"VKAPI_PTR": b"",
    b"CUTE_GRID_CONSTANT": b"",
    b"GGML_TENSOR_BINARY_OP_LOCALS": b"",
    b"GGML_TENSOR_UNARY_OP_LOCALS": b"",
}
# Function-like spellings that expand to an attribute or a pragma: the whole invocation is blanked.
KNOWN_CALLS = (b"__align__", b"__builtin_align__", b"ROCPRIM_CLANG_SUPPRESS_WARNING_WITH_PUSH",
               b"ROCPRIM_CLANG_SUPPRESS_WARNING", b"GGML_TENSOR_LOCALS")
# Error-check macros of the samples and libraries, defined in headers a file includes: statement
# macros whenever they stand first on their line with no ``;`` after them.
KNOWN_STATEMENTS = (b"HIP_CHECK", b"CUDA_CHECK", b"CHECK_CUDA", b"CHECK_HIP", b"HIPCHECK", b"CUDACHECK",
                    b"checkCudaErrors", b"CUDA_SAFE_CALL", b"HIP_CHECK_ERROR", b"CUDA_CHECK_ERROR")
# ``[] __device__ (...)``: an extended lambda's execution space, which the grammar does not expect.
_LAMBDA_SPACE = rb"\]\s*((?:__host__|__device__)(?:\s+(?:__host__|__device__))?)\s*[(\[{]"
# ``typename T::type{...}`` as an expression: the keyword only disambiguates, and the grammar takes
# the qualified name without it (template parameters, ``typename T``, are left alone).
_DEPENDENT = rb"\btypename(?=\s+(?:::\s*)?(?:[A-Za-z_]\w*\s*(?:<[^;{}()]*?>\s*)?|decltype\s*\([^()]*\)\s*)::)"
# A call standing at the start of a line (file scope, in well-formatted code).
_LINE_CALL = rb"\n([A-Za-z_]\w*)[ \t]*\("
_NOT_MACROS = frozenset(w.encode() for w in ("if", "for", "while", "switch", "return", "sizeof", "alignof", "decltype",
                                              "static_assert", "namespace", "operator", "template", "typedef", "using",
                                              "extern", "asm", "do", "case", "catch", "try"))
_QUALIFIER_AFTER = rb"(?:const|noexcept|override|final|try|throw|requires|volatile|__attribute__)\b"
# ``typeid(double)``: a keyword type the grammar does not take inside typeid.
_TYPEID = rb"\btypeid\s*\(\s*((?:unsigned\s+)?(?:double|float|int|long|short|char|bool))\s*\)"
# First words of a function-like macro body that expands to declarations (at file scope).
_DECLARATION_BODY = (rb"(?:template|extern|static|struct|class|typedef|using|namespace|__global__|"
                     rb"__device__|__host__|inline)\b")
# ``using v4 = __attribute__((__vector_size__(16))) float;``: the grammar takes no attribute there.
_ALIAS_ATTRIBUTE = rb"\busing\s+\w+\s*=\s*(__attribute__\s*\(\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)\))"
# ``template class X<float>;``: an explicit instantiation; the grammar takes it without ``class``.
_INSTANTIATION = rb"\btemplate\s+((?:class|struct)\b)(?=\s*[A-Za-z_][\w:]*\s*<[^;{}]*>\s*;)"
# Words an attribute-like macro body may hold (besides other attribute-like macros).
_QUALIFIERS = frozenset(w.encode() for w in (
    "__host__", "__device__", "__global__", "__forceinline__", "__noinline__", "__inline__", "inline",
    "static", "extern", "constexpr", "__shared__", "__constant__", "__managed__", "__restrict__",
    "__attribute__", "__declspec", "_Pragma", "__launch_bounds__", "__always_inline__", "__inline",
    "__forceinline", "__cdecl", "__stdcall", "noexcept", "__noinline", "__global", "__local", "__restrict",
    "restrict", "__grid_constant__", '"C"', '"C++"'))
# Execution-space qualifiers: what to keep when the whole expansion does not fit.
_SPACES = (b"__host__ __device__", b"__global__", b"__device__", b"__host__")
_DEFINE = rb"(?m)^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)(\([^)\n]*\))?((?:[^\n\\]|\\\r?\n|\\)*)"
# Attribute spellings with an argument list (two levels of parentheses: ``__attribute__((x(1)))``).
_ATTRIBUTE_CALLS = (rb"\b(?:__attribute__|__declspec|_Pragma|__launch_bounds__|alignas|__align__)\s*"
                    rb"\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)|\[\[.*?\]\]")
_STATEMENT_BODY = (rb"(?s)^\s*(?:\{.*\}|do\b.*\bwhile\s*\(\s*(?:0|false)\s*\)|(?:if|for|while|switch)\b.*\}"
                   rb"|.*;)\s*$")
_LAUNCH_CONFIG = rb"<<<([^;<>]*)>>>"
_BRACED = rb"\{[^{}]*\}"
_DIRECTIVE = rb"[ \t]*#[ \t]*(if|ifdef|ifndef|elif|elifdef|elifndef|else|endif)\b"
_PAIRS = ((b"{", b"}"), (b"(", b")"))
_EMPTY_DEFAULT = rb"[\w>&*]\s+\w+\s*=\s*(\{\})(?=\s*[,)])"
_CONDITION_LINE = rb"(?m)^[ \t]*#[ \t]*(?:if|elif)\b([^\n]*)"
_OPERATORS = {b"or": b"||", b"and": b"&& ", b"not": b"!  "}
# What ends the code before a conditional group that stands inside an expression or a list.
_OPEN_EXPRESSION = (b",", b"(", b"=", b"?", b"&&", b"||", b"+", b"-", b"|", b"&", b"<<", b">>")
_COMMENTS = rb"(?s)//[^\n]*|/\*.*?\*/"
# Comments, strings, characters and preprocessor lines: no code brackets in them.
_OPAQUE = rb'(?ms)//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|^[ \t]*#(?:[^\n\\]|\\.)*'
_IS_WORD = bytes(1 if (48 <= b < 58 or 65 <= b < 91 or 97 <= b < 123 or b == 95 or b >= 128) else 0
                 for b in range(256))
_WORD_BYTES = bytes(b if _IS_WORD[b] else 32 for b in range(256))
_PRAGMA_CALL = rb"\b(?:_Pragma|__pragma)\s*\((?:[^()]|\([^()]*\))*\)"


_WINDOW_LINES = 50
_NONLOCAL = frozenset(b"#(){}\\\"'/")


class Macros(NamedTuple):
    """What the pre-pass rewrites in one file."""

    attributes: dict[bytes, bytes]  # name -> same-length replacement (spaces padded)
    statements: dict[bytes, bool]  # statement macros -> function-like
    declarations: frozenset[bytes] = frozenset()  # function-like macros that expand to declarations
    calls: frozenset[bytes] = frozenset()  # function-like macros that expand to attributes or pragmas


def _fit(name: bytes, expansion: bytes, calls: Iterable[bytes] = ()) -> bytes:
    """The replacement for ``name``: its expansion, else the execution space that fits, padded
    (a pragma in it, and invocations of ``calls``, are left out: the grammar reads
    ``_Pragma("unroll")`` as a call)."""
    text = b" ".join(_without_calls(re.compile(_PRAGMA_CALL).sub(b" ", expansion), calls).split())
    if len(text) > len(name):
        text = next((s for s in _SPACES if s in text and len(s) <= len(name)), b"")
    return text.ljust(len(name))


def _attribute_body(body: bytes, attributes: dict[bytes, bytes], calls: set[bytes]) -> bool:
    """Only qualifiers, attributes, pragmas, attribute-like macros and invocations of the
    function-like ones (``calls``), or nothing."""
    body = _without_calls(re.compile(_ATTRIBUTE_CALLS).sub(b" ", body.replace(b"\\\n", b" ")), calls)
    return all(w in _QUALIFIERS or w in attributes for w in body.split())


def _without_calls(text: bytes, calls: Iterable[bytes]) -> bytes:
    """``text`` with each invocation of a macro of ``calls`` (``NAME(...)``) left out."""
    for name in calls:
        for start in reversed(_occurrences(text, name)):
            end = _call_end(text, start + len(name))
            if end is not None:
                text = text[:start] + b" " + text[end:]
    return text


def _present(source: bytes, names: tuple[bytes, ...]) -> list[bytes]:
    """The names ``source`` contains, testing each 4-byte prefix once (fewer scans of a large file)."""
    found: list[bytes] = []
    for prefix, group in _by_prefix(names).items():
        if prefix in source:
            found.extend(n for n in group if n in source)
    return found


@functools.cache
def _by_prefix(names: tuple[bytes, ...]) -> dict[bytes, list[bytes]]:
    groups: dict[bytes, list[bytes]] = {}
    for name in names:
        groups.setdefault(name[:4], []).append(name)
    return groups


@functools.cache
def _all_known() -> dict[bytes, bytes]:
    return {name: _fit(name, body) for name, body in KNOWN.items()}


class _Found(NamedTuple):
    """Definitions classified so far (:func:`_classify`)."""

    attributes: dict[bytes, bytes]
    statements: dict[bytes, bool]
    declarations: set[bytes]
    calls: set[bytes]
    refused: set[bytes]


def scan(source: bytes, headers: Sequence[bytes] = ()) -> Macros:
    """The macros of ``source`` the pre-pass acts on: its own definitions, and those of ``headers``
    (the texts of the project's headers: the ones it includes, and over a tree the others, whose
    macros a header may use from its includer) for the names it uses."""
    known = {name: _fit(name, KNOWN[name]) for name in _present(source, tuple(KNOWN))}
    found = _Found(known, {}, set(), set(), set())
    if headers:
        # a header's macros matter where the file names them (each costs a search in ``prepare``),
        # in its code or in its own definitions' bodies
        base = _headers_found(tuple(headers))
        for name in set(source.translate(_WORD_BYTES).split()):
            if name in base.attributes:
                found.attributes.setdefault(name, base.attributes[name])
            if name in base.statements:
                found.statements[name] = base.statements[name]
            for kind in ("declarations", "calls", "refused"):
                if name in getattr(base, kind):
                    getattr(found, kind).add(name)
    if b"define" in source:
        _classify(_definitions(source), found)
    attributes, statements, declarations, calls, refused = found
    for name in refused:
        if name not in KNOWN:
            attributes.pop(name, None)
    return Macros(attributes, {name: call for name, call in statements.items() if name not in refused},
                  frozenset(declarations - refused - set(statements)), frozenset(calls - refused))


@functools.lru_cache(maxsize=4)
def _headers_found(headers: tuple[bytes, ...]) -> _Found:
    """The headers' definitions, classified once for all the units of a tree that read them."""
    found = _Found(dict(_all_known()), {}, set(), set(), set())
    _classify([d for header in headers for d in _definitions(header)], found)
    return found


def _classify(definitions: Iterable[tuple[bytes, bytes | None, bytes]], found: _Found) -> None:
    attributes, statements, declarations, calls, refused = found
    for name, params, body in definitions:
        if ((params is not None and (re.compile(_DECLARATION_BODY).match(body)
                                     or body.split(b"(", 1)[0].strip() in declarations))  # made of them
                or (params is None and re.compile(_DECLARATION_BODY).match(body) and b";" in body)):
            declarations.add(name)  # an object-like one holds a declaration: ``using T = ...; f();``
        elif body and (re.compile(_STATEMENT_BODY).match(body)
                       or body.split(b"(", 1)[0].strip() in statements):  # made of statement macros
            statements[name] = params is not None
        elif params is not None and not body:
            pass  # expands to nothing (the #else of a statement macro): a `;` after it is harmless
        elif name in KNOWN or not _attribute_body(body, attributes, calls):
            refused.add(name)  # defined otherwise too (an #if branch): not surely an attribute
        elif params is None:
            attributes.setdefault(name, _fit(name, body, calls))
        elif body:
            calls.add(name)  # ``DO_PRAGMA(x)``: an invocation expands to a pragma or an attribute
        else:
            refused.add(name)


@functools.lru_cache(maxsize=512)
def _definitions(text: bytes) -> tuple[tuple[bytes, bytes | None, bytes], ...]:
    """(name, parameters or None, body without comments and line splices) of each ``#define``
    (kept per text: a tree's units include the same headers)."""
    if b"define" not in text:
        return ()
    return tuple((m[1], m[2], re.sub(rb"(?s)/\*.*?\*/|//[^\n]*|\\\r?\n|\\$", b" ", m[3]).strip())
                 for m in re.compile(_DEFINE).finditer(text))


def prepare(source: bytes, macros: Macros | None = None) -> bytes:
    """``source`` as the parser should read it (same length, same lines)."""
    if macros is None:
        macros = scan(source)
    out: bytearray | None = None

    def put(start: int, text: bytes) -> None:
        nonlocal out
        if out is None:
            out = bytearray(source)
        out[start:start + len(text)] = text

    for name, text in macros.attributes.items():
        for start in _occurrences(source, name):
            if not _is_definition(source, start):
                put(start, text)
    for start in _occurrences(source, b"__restrict"):
        put(start, b"restrict  ")
    for name in (*_present(source, KNOWN_CALLS), *macros.calls):
        for start in _occurrences(source, name):
            end = _call_end(source, start + len(name))
            if end is not None and not _is_definition(source, start):
                put(start, _blank(source[start:end]))
    blanked_to = -1  # where the last declaration invocation left out ends
    for start in sorted(s for name in macros.declarations for s in _occurrences(source, name)):
        # a declaration macro invoked first on its line (or after ``extern``, or after another one
        # on its line): the grammar cannot read a declaration it does not see, so it is left out
        lead = source[_line_start(source, start):start]
        name_end = start + len(_name_at(source, start))
        end = _call_end(source, name_end)
        line_end = source.find(b"\n", name_end)
        if end is None and not source[name_end:len(source) if line_end == -1 else line_end].strip():
            end = name_end  # an object-like one, alone on its line
        after_one = blanked_to >= 0 and not source[blanked_to:start].strip(b" \t")
        if end is not None and (lead.strip(b" \t") in (b"", b"extern") or after_one):
            begin = start if after_one else start - len(lead.lstrip(b" \t"))
            put(begin, _blank(source[begin:end]))
            blanked_to = end
    for start, end in _file_scope_invocations(source, macros):
        put(start, _blank(source[start:end]))
    if b"unsigned(" in source:
        for start in _occurrences(source, b"unsigned"):
            end = _call_end(source, start + len(b"unsigned"))
            after = source[end:end + 40].lstrip(b" \t") if end is not None else b""
            before = source[max(0, start - 12):start].rstrip()
            if source[start + len(b"unsigned"):start + len(b"unsigned") + 1] == b"(" and (
                    (after[:1] == b"<" and after[:2] != b"<<") or re.compile(rb"\breturn$").search(before)):
                # ``if (unsigned(e) < n)``, ``return unsigned(a + b);``: the grammar reads a
                # declaration there; a call reads right
                put(start, b"U")
    if b"{}" in source:
        for m in re.compile(_EMPTY_DEFAULT).finditer(source):
            # ``const std::vector<int>& v = {}``: a default argument the grammar does not take
            put(m.start(1), b"0 ")
    if b"typeid" in source:
        for m in re.compile(_TYPEID).finditer(source):
            # ``typeid(double) == ...``: the grammar takes a type there only as a name
            put(m.start(1), m[1][:1].upper())
    for pattern, gate in ((_LAMBDA_SPACE, b"]"), (_DEPENDENT, b"typename"), (_INSTANTIATION, b"template"),
                          (_ALIAS_ATTRIBUTE, b"__attribute__")):
        if gate in source:
            # over what is rewritten so far: ``[] ROCPRIM_DEVICE (`` is ``[] __device__ (`` by now
            compiled = re.compile(pattern)
            for m in compiled.finditer(source if out is None else bytes(out)):
                if pattern is _DEPENDENT and _in_template_parameters(source, m.start()):
                    continue
                put(m.start(1) if compiled.groups else m.start(), _blank(m[1] if compiled.groups else m[0]))
    for name, call in (*macros.statements.items(), *((n, True) for n in _present(source, KNOWN_STATEMENTS))):
        for start in _occurrences(source, name):
            at = _semicolon_spot(source, start, start + len(name), call)
            if at is not None:
                put(at, b";")
    if b"<<<" in source:
        for m in re.compile(_LAUNCH_CONFIG).finditer(source):
            for brace in re.compile(_BRACED).finditer(m[1]):
                # ``<<<grid, {32, 8, 1}>>>``: a braced dim3, which the grammar takes only as a parenthesis
                put(m.start(1) + brace.start(), b"(")
                put(m.start(1) + brace.end() - 1, b")")
    for start, end in _split_groups(source):
        put(start, _blank(source[start:end]))
    if b'" ' in source and re.compile(rb'"[ \t]+\w*[A-Z]').search(source):  # a full scan only then
        for start, end in _string_macros(source):
            put(start, _blank(source[start:end]))
    if b"#" in source:
        for line in re.compile(_CONDITION_LINE).finditer(source):
            # ``#if defined(_WIN32) or defined(__APPLE__)``: C++'s spellings of || && !, which the
            # grammar does not take in a directive
            for m in re.compile(rb"\b(?:or|and|not)\b").finditer(source, line.start(1), line.end()):
                put(m.start(), _OPERATORS[m[0]])
    return source if out is None else bytes(out)


def set_aside(source: bytes) -> list[tuple[int, int]]:
    """The ``#elif``/``#else`` branches ``prepare`` blanks (with their directive lines), in order."""
    return [span for span in _split_groups(source) if not re.compile(_DIRECTIVE).match(source, span[0])]


def _split_groups(source: bytes) -> list[tuple[int, int]]:
    """Spans to blank for conditional groups whose branches split a statement or a list (``if (a) {``
    in one branch, ``if (b) {`` in the other; ``} else`` before ``#endif``; parameters under
    ``#ifdef``): the directive lines and every branch but the first, as a preprocessor that takes the
    ``#if`` branch reads them. Balanced groups stay: the grammar reads those itself."""
    if b"#" not in source:
        return []
    spans: list[tuple[int, int]] = []
    stack: list[tuple[list[tuple[int, int]], list[int]]] = []  # (directive lines, branch starts)
    for start, end, kind in _directives(source):
        if kind in (b"if", b"ifdef", b"ifndef"):
            stack.append(([(start, end)], [end]))
        elif not stack:
            continue
        elif kind != b"endif":
            stack[-1][0].append((start, end))
            stack[-1][1].append(end)
        else:
            lines, starts = stack.pop()
            lines.append((start, end))
            branches = [(b, lines[i + 1][0]) for i, b in enumerate(starts)]
            if _splits(source, lines[0][0], end, branches):
                spans.extend(lines)
                spans.extend(branches[1:])
    return sorted(spans)


def _directives(source: bytes) -> list[tuple[int, int, bytes]]:
    """(line start, line end, kind) of each conditional directive."""
    found: list[tuple[int, int, bytes]] = []
    i = source.find(b"#")
    while i != -1:
        line = _line_start(source, i)
        if not source[line:i].strip(b" \t"):
            m = re.compile(_DIRECTIVE).match(source, line)
            if m is not None:
                end = source.find(b"\n", i)
                while end != -1 and source[end - 1:end] == b"\\":
                    end = source.find(b"\n", end + 1)
                end = len(source) if end == -1 else end
                found.append((line, end, m[1]))
                i = end
        i = source.find(b"#", i + 1)
    return found


def _splits(source: bytes, group_start: int, group_end: int, branches: list[tuple[int, int]]) -> bool:
    before = re.compile(_COMMENTS).sub(b" ", source[max(0, group_start - 200):group_start]).rstrip()
    after = re.compile(_COMMENTS).sub(b" ", source[group_end:group_end + 200]).lstrip()
    if before.endswith(_OPEN_EXPRESSION) or after.startswith((b")", b",")):
        return True  # inside a parameter or argument list, or an expression
    for start, end in branches:
        text = source[start:end]
        if before.endswith(b")") and re.compile(_OPAQUE).sub(b" ", text).lstrip().startswith((b"=", b"{")):
            return True  # alternative bodies of a declared function (``{ throw ...; }`` or ``= 0;``)
        if any(text.count(o) != text.count(c) for o, c in _PAIRS):
            text = re.compile(_OPAQUE).sub(b" ", text)
            if any(text.count(o) != text.count(c) for o, c in _PAIRS):
                return True
        code = re.compile(_OPAQUE).sub(b" ", text).strip()
        if code.endswith((b",", b"else")) or code.startswith((b",", b"else")):
            return True
        if code.endswith(b")") and re.compile(rb"(?:if|for|while)\s*\(").match(code):
            return True  # a statement's head, its body after the group
    return False


def local_edit(removed: bytes, inserted: bytes) -> bool:
    """Whether an edit can change the preparation only near itself: it adds or removes no directive,
    bracket, quote, comment or line continuation (those can change what a distant line means)."""
    return not any(c in _NONLOCAL for c in removed) and not any(c in _NONLOCAL for c in inserted)


def prepare_window(source: bytes, prepared: bytes, start: int, end: int,
                   macros: Macros) -> tuple[bytes, int, int] | None:
    """``prepared`` (the last preparation, with the edits since spliced in as typed) with the lines
    around [start, end) prepared again, and those lines' span; None when they hold a directive (then
    prepare it all). For a document's re-parse after local edits (``local_edit``): a few lines, not
    the whole file."""
    lo = start
    for _ in range(3):
        lo = source.rfind(b"\n", 0, max(0, lo - 1)) + 1
    # back to a statement boundary: a statement macro ending just above puts its ``;`` in here
    for _ in range(_WINDOW_LINES):
        if lo == 0:
            break
        above = source.rfind(b"\n", 0, lo - 1) + 1
        code = source[above:lo].split(b"//", 1)[0].strip()
        if not code or code.endswith((b";", b"{", b"}", b":")):
            break
        lo = above
    else:
        return None
    hi = end
    for _ in range(3):
        nl = source.find(b"\n", hi)
        hi = len(source) if nl == -1 else nl + 1
    window = source[lo:hi]
    if b"#" in window:
        return None
    every_known = macros._replace(attributes={**_all_known(), **macros.attributes})
    return prepared[:lo] + prepare(window, every_known) + prepared[hi:], lo, hi


def changed(original: bytes, prepared: bytes, start: int, end: int) -> bool:
    """Whether the pre-pass rewrote any byte of [start, end)."""
    return original is not prepared and original[start:end] != prepared[start:end]


def differences(old: bytes, new: bytes, start: int = 0, end: int | None = None,
                chunk: int = 4096) -> list[tuple[int, int]]:
    """[start, end) spans where two buffers of the same length differ within [start, end) (compared
    chunk by chunk: memcmp speed for the usual few differences)."""
    spans: list[tuple[int, int]] = []
    end = len(new) if end is None else end
    if old == new:
        return spans
    for lo in range(start, end, chunk):
        hi = min(lo + chunk, end)
        if old[lo:hi] == new[lo:hi]:
            continue
        start = next(i for i in range(lo, hi) if old[i] != new[i])
        end = next(i for i in range(hi, start, -1) if old[i - 1] != new[i - 1])
        if spans and spans[-1][1] >= start - 1:
            start = spans.pop()[0]
        spans.append((start, end))
    return spans


def _occurrences(source: bytes, name: bytes) -> list[int]:
    found: list[int] = []
    i = source.find(name)
    while i != -1:
        j = i + len(name)
        if (i == 0 or not _IS_WORD[source[i - 1]]) and (j == len(source) or not _IS_WORD[source[j]]):
            found.append(i)
        i = source.find(name, j)
    return found


def _name_at(source: bytes, start: int) -> bytes:
    """The identifier that starts at ``start``."""
    end = start
    while end < len(source) and _IS_WORD[source[end]]:
        end += 1
    return source[start:end]


def _blank(text: bytes) -> bytes:
    """Spaces for ``text``, its line breaks kept."""
    return re.sub(rb"[^\r\n]", b" ", text)


def _line_start(source: bytes, pos: int) -> int:
    return source.rfind(b"\n", 0, pos) + 1


def _is_definition(source: bytes, start: int) -> bool:
    """``name`` at ``start`` is on a preprocessor line (its own #define, an #ifdef)."""
    return source[_line_start(source, start):start].lstrip(b" \t").startswith(b"#")


def _semicolon_spot(source: bytes, start: int, end: int, call: bool) -> int | None:
    """Where a statement macro invoked at [start, end) lacks its ``;``: a blank byte after it (after
    its ``)`` when ``call``)."""
    if source[_line_start(source, start):start].strip(b" \t"):
        return None  # not first on its line: an expression, or after a label or an if
    close = _call_end(source, end) if call else end
    if close is None:
        return None
    n = len(source)
    j = close
    while j < n:
        if source[j] in b" \t\r\n":
            j += 1
        elif source[j:j + 2] == b"//":
            j = source.find(b"\n", j) if source.find(b"\n", j) != -1 else n
        elif source[j:j + 2] == b"/*":
            j = source.find(b"*/", j + 2) + 2 if source.find(b"*/", j + 2) != -1 else n
        else:
            break
    if j < n and source[j] in b";,)]{.?:=+-*/<>&|^%!":
        return None  # followed by ; or an operator: an expression, or already a statement
    k = close
    while k < j:
        if source[k] in b" \t":
            return k
        k += 1
    return None


def _file_scope_invocations(source: bytes, macros: Macros) -> list[tuple[int, int]]:
    """``NAME(args)`` at the start of a line, alone on it, not followed by ``{``, ``;``, ``:`` or an
    operator: a macro from a header that expands to declarations at file scope (a function's
    parameter list is followed by its body or a ``;``). Left out as a declaration macro is."""
    found: list[tuple[int, int]] = []
    for m in re.compile(_LINE_CALL).finditer(source):
        name = m[1]
        if name in _NOT_MACROS or name.startswith(b"__") or name in macros.attributes:
            continue
        end = _call_end(source, m.end(1))
        if end is None:
            continue
        rest = re.compile(_COMMENTS).sub(b" ", source[end:end + 300])
        line_end = rest.find(b"\n")
        if line_end == -1 or rest[:line_end].strip():
            continue  # more on the line: a declaration or a definition goes on
        following = rest[line_end:].lstrip()
        if following[:1] in (b"{", b";", b":", b",", b")", b"=", b"-", b".", b"&", b"|", b"+", b"*", b"<", b">") \
                or re.compile(_QUALIFIER_AFTER).match(following):
            continue
        found.append((m.start(1), end))
    return found


def _in_template_parameters(source: bytes, pos: int) -> bool:
    """``typename`` at ``pos`` opens a template parameter or argument (``<typename T::x* = nullptr>``),
    where the grammar needs it, rather than an expression's operand."""
    before = source[max(0, pos - 300):pos].rstrip()
    if before.endswith(b"<"):
        return True
    if not before.endswith(b","):
        return False
    angle = before.replace(b"<<", b"  ").rfind(b"<")
    return angle > before.rfind(b"(")


def _string_macros(source: bytes) -> list[tuple[int, int]]:
    """Macros between or after string literals, which the grammar reads only as adjacent literals:
    ``"%" PRId64 "\\n"``, ``"ld." PTX_relaxed_gpu ".global"``, ``"ARCH=" STR(ARCH) "0"``. Each name
    (with its argument list) after a literal, up to the next literal or the end of the argument,
    becomes spaces. Only names with a capital letter, never after ``extern "C"`` or ``operator ""``,
    and never touching the quote (a literal's suffix, ``"abc"_s``); a quote in a comment or a
    directive line is not a literal's."""
    spans: list[tuple[int, int]] = []
    word = re.compile(rb"[ \t]+([A-Za-z_]\w*)")
    for candidate in re.compile(rb'"(?=[ \t]+\w*[A-Z])').finditer(source):
        close = candidate.start()
        line_start = source.rfind(b"\n", 0, close) + 1
        literal = _closed_literal(source, line_start, close)
        if literal is None or source.rfind(b"/*", 0, close) > source.rfind(b"*/", 0, close) or re.compile(
                rb"(?:extern|operator)\s*$").search(source, max(0, literal - 12), literal):
            continue
        i, found = close + 1, []
        while True:
            name = word.match(source, i)
            if name is None or not re.search(rb"[A-Z]", name[1]):
                break
            end = _call_end(source, name.end()) or name.end()
            found.append((name.start(1), end))
            i = end
        after = source[i:i + 80].lstrip(b" \t\r\n")[:1]
        if found and after in (b'"', b",", b")", b";", b":", b"}"):
            spans.extend(found)
    return spans


def _closed_literal(source: bytes, line_start: int, close: int) -> int | None:
    """Where the string literal that the quote at ``close`` closes opens, reading its line from
    ``line_start`` (literals, character literals and a ``//`` comment); None where that quote opens
    one, sits in a comment or the line is a directive."""
    if source[line_start:close].lstrip(b" \t").startswith(b"#"):
        return None
    i = line_start
    while i < close:
        c = source[i]
        if c == ord("/") and source[i + 1:i + 2] == b"/":
            return None
        if c == ord("'"):
            i = _skip_quoted(source, i) + 1
            continue
        if c == ord('"'):
            end = _skip_quoted(source, i)
            if end == close:
                return i
            if end > close:
                return None
            i = end + 1
            continue
        i += 1
    return None


def _call_end(source: bytes, i: int) -> int | None:
    """The offset after the ``)`` closing the argument list that starts at ``i`` (blanks first)."""
    n = len(source)
    while i < n and source[i] in b" \t":
        i += 1
    if i >= n or source[i] != ord("("):
        return None
    depth = 0
    while i < n:
        c = source[i]
        if c == ord("("):
            depth += 1
        elif c == ord(")"):
            depth -= 1
            if depth == 0:
                return i + 1
        elif c in b"\"'":
            i = _skip_quoted(source, i)
        i += 1
    return None


def _skip_quoted(source: bytes, i: int) -> int:
    quote = source[i]
    i += 1
    while i < len(source) and source[i] != quote and source[i] != ord("\n"):
        i += 2 if source[i] == ord("\\") else 1
    return i
