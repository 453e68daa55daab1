"""Source preparation for the CPU runtime: what the replacement headers cannot express as macros.

* ``k<<<grid, block, shmem, stream>>>(args)`` becomes
  ``::cass::launch("k", grid, block, shmem, stream)([&](auto&... cass_a) { k(cass_a...); }, args)``:
  the arguments are evaluated once, on the launching thread (``k<<<2, 32>>>(d, n++)`` increments
  ``n`` once), and each GPU thread (a fiber) calls the kernel with them, so its parameters get the
  conversions of an ordinary call. Template kernels (``k<T, N><<<...>>>``), launches in lambdas and
  in ``#define`` bodies are rewritten alike; the text may be a header's. A launch with a braced
  argument (``{1, 2}``, which has no type to be stored by) keeps its call in the lambda instead.
* ``extern __shared__ T s[];`` (dynamic shared memory) becomes a pointer to the launch's per-block
  buffer (at file scope a thread_local reference to it, so no macro takes over the name);
  ``static __shared__`` gets ``thread_local`` in place of ``__shared__`` (the headers define
  ``__shared__`` as ``static thread_local``, which ``static`` would duplicate).
* ``asm("...")`` (inline PTX) becomes calls of ``cass_cpu/ptx.hpp``'s helpers (:mod:`cass_lsp.cpu.ptx`).
* ``cudaLaunchCooperativeKernel((void*)k, ...)`` (and HIP's) loses the cast, the usual spelling of
  the call: through a ``void*`` the runtime could not know how to read the kernel's arguments.

Every edit keeps the newlines of the text it replaces, so the output has the user's line numbers
(compile errors map back without a line table).
"""

from __future__ import annotations

import re

import tree_sitter

from cass_lsp.cpu import ptx
from cass_lsp.syntax import nodes
from cass_lsp.syntax import parsing as syntax

_QUERY = "cpu_source"
_SHARED = "__shared__"
# __align__(n) / __attribute__((...)) in a dynamic shared declaration: the runtime's buffer is
# 256-byte aligned already, and the attribute cannot sit where the rewritten declaration puts it.
_ATTRIBUTE = re.compile(r"__align__\s*\((?:[^()]|\([^()]*\))*\)|__attribute__\s*\(\((?:[^()]|\([^()]*\))*\)\)")
_DYNAMIC = re.compile(r"^(?P<type>.+?)\s*\b(?P<name>[A-Za-z_]\w*)\s*\[\s*\](?P<dims>(?:\s*\[[^\]]*\])*)\s*;$", re.S)
_MACRO_SHARED = re.compile(r"\bextern\s+__shared__\s+(?P<declaration>[^;{}\\]*;)")
_MACRO_LAUNCH = re.compile(r"(?P<kernel>[A-Za-z_][\w:]*(?:\s*<[^<>;()]*>)?)\s*<<<(?P<config>.*?)>>>\s*\(", re.S)

_COOPERATIVE_CAST = re.compile(rb"\b(?:cuda|hip)LaunchCooperativeKernel\s*\(\s*(?P<cast>\(\s*(?:const\s+)?void\s*\*\s*\))")

_NULL_ARGUMENT = "::cass::NullArgument{}"
_BRACED = "initializer_list"

Edit = tuple[int, int, str]


def prepare_source(text: str) -> str:
    """``text`` with launches and dynamic shared memory rewritten for the CPU runtime (same lines)."""
    source = text.encode("utf-8")
    tree = syntax.parse(source)
    edits: list[Edit] = []
    for _, match in syntax.matches(_QUERY, tree.root_node):
        if "cpu.launch" in match:
            edits.extend(_launch(source, match))
        elif "cpu.declaration" in match:
            pass  # grouped below: a declaration matches once per specifier
        elif "cpu.macro_body" in match:
            edits.extend(_macro_launches(source, match["cpu.macro_body"][0]))
        elif "cpu.asm" in match:
            edits.extend(_inline_ptx(source, match["cpu.asm"][0]))
    edits.extend(_shared_declarations(source, tree.root_node))
    edits.extend((m.start("cast"), m.end("cast"), _keep_lines(m["cast"].decode(), "")) for m in _COOPERATIVE_CAST.finditer(source))
    return _apply(source, edits).decode("utf-8")


def _text(source: bytes, node: tree_sitter.Node) -> str:
    return source[node.start_byte : node.end_byte].decode("utf-8")


def _keep_lines(original: str, replacement: str) -> str:
    """``replacement`` padded with the newlines ``original`` had, so later lines do not move."""
    return replacement + "\n" * (original.count("\n") - replacement.count("\n"))


def _c_string(text: str) -> str:
    return '"' + " ".join(text.split()).replace("\\", "\\\\").replace('"', '\\"') + '"'


def _launch(source: bytes, match: dict[str, list[tree_sitter.Node]]) -> list[Edit]:
    kernel = match["cpu.launch.kernel"][0]
    config = match["cpu.launch.config"][0]
    arguments = match["cpu.launch.arguments"][0]
    if config.child_count < 2 or arguments.child_count < 2:
        return []
    opening, closing = config.children[0], config.children[-1]
    paren = arguments.children[0]
    name = " ".join(_text(source, kernel).split())
    head = source[kernel.start_byte : opening.end_byte].decode("utf-8")
    has_arguments = any(child.type != nodes.COMMENT for child in arguments.named_children)
    middle = source[closing.start_byte : paren.end_byte].decode("utf-8")
    launch = (kernel.start_byte, opening.end_byte, _keep_lines(head, f"::cass::launch({_c_string(name)}, "))
    if any(child.type == _BRACED for child in arguments.named_children):
        # `k<<<g, b>>>(d, {1, 2})`: a braced list has no type of its own to store it by, so the
        # arguments stay in the call, evaluated by each GPU thread (a braced list rarely has effects).
        end_paren = arguments.children[-1]
        return [
            launch,
            (closing.start_byte, paren.end_byte, _keep_lines(middle, f")([&] {{ {name}(")),
            (end_paren.start_byte, end_paren.end_byte, "); })"),
        ]
    # The arguments are stored before the kernel sees them, so g++'s NULL (a long) would no longer
    # be a null pointer constant: it becomes an object that converts to any pointer (or to 0).
    nulls = [(a.start_byte, a.end_byte, _NULL_ARGUMENT) for a in arguments.named_children if _text(source, a) == "NULL"]
    return [
        launch,
        (closing.start_byte, paren.end_byte, _keep_lines(middle, ")(" + _body(name) + (", " if has_arguments else ""))),
        *nulls,
    ]


def _body(kernel: str) -> str:
    """The lambda each GPU thread runs: the kernel called with the launch's (once-evaluated) arguments."""
    return f"[&](auto&... cass_a) {{ {kernel}(cass_a...); }}"


def _macro_launches(source: bytes, body: tree_sitter.Node) -> list[Edit]:
    """Launches and inline PTX inside ``#define`` bodies, which the grammar leaves as text."""
    original = _text(source, body)
    try:
        asm = ptx.in_macro_body(original)
    except ptx.Untranslated:
        asm = []  # refused by refuse.py
    text = original
    for start, end, replacement in sorted(asm, reverse=True):
        text = text[:start] + replacement + text[end:]
    shared = _macro_shared(text)
    changed = bool(asm) or shared != text
    text = shared
    if "<<<" not in text:
        return [(body.start_byte, body.end_byte, text)] if changed else []
    out: list[str] = []
    pos = 0
    for m in _MACRO_LAUNCH.finditer(text):
        if m.start() < pos:
            continue
        close = _matching_paren(text, m.end() - 1)
        if close < 0:
            continue
        kernel = " ".join(m["kernel"].split())
        arguments = text[m.end() : close]
        out.append(text[pos : m.start()])
        rest = ", " + arguments if arguments.strip() else ""
        out.append(f"::cass::launch({_c_string(kernel)}, {m['config']})({_body(kernel)}{rest})")
        pos = close + 1
    if not out:
        return [(body.start_byte, body.end_byte, text)] if changed else []
    out.append(text[pos:])
    return [(body.start_byte, body.end_byte, "".join(out))]


def _matching_paren(text: str, open_at: int) -> int:
    depth = 0
    for i in range(open_at, len(text)):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return i
    return -1


def _shared_declarations(source: bytes, root: tree_sitter.Node) -> list[Edit]:
    storage: dict[int, set[str]] = {}
    shared: dict[int, tuple[tree_sitter.Node, tree_sitter.Node]] = {}
    for _, match in syntax.matches(_QUERY, root):
        declaration = match.get("cpu.declaration")
        if not declaration:
            continue
        decl = declaration[0]
        for node in match.get("cpu.storage", []):
            storage.setdefault(decl.id, set()).add(_text(source, node))
        for node in match.get("cpu.qualifier", []):
            if _text(source, node) == _SHARED:
                shared[decl.id] = (decl, node)
    edits: list[Edit] = []
    for decl_id, (decl, qualifier) in shared.items():
        kinds = storage.get(decl_id, set())
        if "extern" in kinds:
            edit = _dynamic_shared(source, decl)
            if edit is not None:
                edits.append(edit)
        elif "static" in kinds:
            edits.append((qualifier.start_byte, qualifier.end_byte, "thread_local"))
    return edits


def _inside_function(node: tree_sitter.Node) -> bool:
    parent = node.parent
    while parent is not None:
        if parent.type == nodes.FUNCTION_DEFINITION:
            return True
        parent = parent.parent
    return False


def _dynamic_shared(source: bytes, decl: tree_sitter.Node) -> Edit | None:
    original = _text(source, decl)
    stripped = re.sub(r"\bextern\b|\b__shared__\b", " ", _ATTRIBUTE.sub(" ", original))
    m = _DYNAMIC.match(" ".join(stripped.split()))
    if m is None:
        return None
    type_, name, dims = m["type"], m["name"], "".join(m["dims"].split())
    if _inside_function(decl):
        pointer = f"{type_} (*){dims}" if dims else f"{type_}*"
        buffer = f"reinterpret_cast<{pointer}>(::cass::dynamic_shared())"
        return decl.start_byte, decl.end_byte, _keep_lines(original, f"{type_} (*const {name}){dims} = {buffer};")
    return decl.start_byte, decl.end_byte, _keep_lines(original, _shared_reference(type_, name, dims))


def _shared_reference(type_: str, name: str, dims: str) -> str:
    """At file scope the name must reach the buffer of the block that runs on this thread: a
    thread_local reference to the runtime's per-thread buffer pointer does (a #define would take
    the name over everywhere after it, a member or local variable called `shared` included). It
    does inside a function too, where a macro body's declaration may be."""
    declarator = f"(*&{name}){dims}" if dims else f"*&{name}"
    return f"static thread_local {type_} {declarator} = ::cass::dynamic_shared_as<{type_}{dims}>();"


def _macro_shared(text: str) -> str:
    """``text`` (a ``#define`` body) with each ``extern __shared__ T name[];`` made the reference
    to the block's dynamic shared memory (cuda-samples' cudasharedmem.h declares it in a macro that
    defines SharedMemory<T>; `extern static thread_local` did not build)."""

    def one(m: re.Match[str]) -> str:
        found = _DYNAMIC.match(" ".join(_ATTRIBUTE.sub(" ", m["declaration"]).split()))
        if found is None:
            return m.group()
        return _shared_reference(found["type"], found["name"], "".join(found["dims"].split()))

    return _MACRO_SHARED.sub(one, text)


def _inline_ptx(source: bytes, node: tree_sitter.Node) -> list[Edit]:
    """The asm statement as calls of cass_cpu/ptx.hpp; one that does not translate is refused by refuse.py."""
    try:
        replacement = ptx.translate(source, node)
    except ptx.Untranslated:
        return []
    return [(node.start_byte, node.end_byte, _keep_lines(_text(source, node), replacement))]


def _apply(source: bytes, edits: list[Edit]) -> bytes:
    out: list[bytes] = []
    pos = 0
    for start, end, replacement in sorted(edits, key=lambda e: (e[0], e[1])):
        if start < pos:
            continue  # overlapping edits (a launch inside a launch's arguments): keep the outer one
        out.append(source[pos:start])
        out.append(replacement.encode("utf-8"))
        pos = end
    out.append(source[pos:])
    return b"".join(out)
