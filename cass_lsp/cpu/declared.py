"""What the CPU runtime's own C++ headers declare in a namespace (or at file scope), read from the
headers' syntax trees, so the refusal scan (:mod:`cass_lsp.cpu.refuse`) refuses exactly what they
do not offer instead of keeping a second list by hand: the names of its CUB, the Thrust backend
policies it maps onto Thrust's device system, and its graph API."""

from __future__ import annotations

import functools
from pathlib import Path

import tree_sitter

from cass_lsp.syntax import nodes
from cass_lsp.syntax import parsing as syntax

_QUERY = "cpu_declared"
_RUNTIME = Path(__file__).resolve().parent / "include" / "cass_cpu"
# What may stand between a declaration and the scope it declares its name in.
_WRAPPERS = frozenset({nodes.TEMPLATE_DECLARATION, nodes.ENUMERATOR_LIST, *nodes.TAG_SPECIFIERS, nodes.TYPE_DEFINITION,
                       nodes.DECLARATION, nodes.IFDEF, nodes.IF, nodes.ELIF, nodes.ELIFDEF, nodes.ELSE})


@functools.cache
def cub_names() -> frozenset[str]:
    """The names the runtime's CUB (``cass_cpu/cub/``) declares in namespace ``cub``, its ``detail``
    namespace aside: those a program may use as ``cub::`` or ``hipcub::`` (an alias of it)."""
    names: set[str] = set()
    for header in sorted((_RUNTIME / "cub").glob("*.hpp")):
        names |= namespace_members(header.read_bytes(), ("cub",))
    return frozenset(names)


@functools.cache
def thrust_policies(backend: str) -> frozenset[str]:
    """The execution policies of Thrust's ``backend`` (``cuda``, ``hip``) that the runtime maps onto
    Thrust's device system (``cass_cpu/thrust_policy.hpp``); none for another backend."""
    return namespace_members((_RUNTIME / "thrust_policy.hpp").read_bytes(), ("system", backend))


@functools.cache
def graph_names() -> frozenset[str]:
    """The CUDA names the runtime's graphs (``cass_cpu/graph.hpp``) declare: its graph functions,
    types and enumerators (their HIP names are these with ``hip`` for ``cuda``)."""
    return namespace_members((_RUNTIME / "graph.hpp").read_bytes(), ())


def namespace_members(source: bytes, namespace: tuple[str, ...]) -> frozenset[str]:
    """The names declared directly in ``namespace`` (outermost first; ``()`` is file scope) of the
    header text ``source``: its classes, enums and their enumerators, typedefs, functions and
    variables, not a nested namespace's, a class's or a function's."""
    names: set[str] = set()
    for _, captured in syntax.matches(_QUERY, syntax.parse(source).root_node):
        if _scope(captured["item"][0]) == namespace:
            names.update(_declared_name(node) for node in captured["declared"])
    names.discard("")
    return frozenset(names)


def _scope(item: tree_sitter.Node) -> tuple[str, ...] | None:
    """The namespace ``item`` declares its name in, or None for a class's or a function's scope."""
    node = item.parent
    while node is not None and node.type in _WRAPPERS:
        node = node.parent
    if node is None:
        return None
    if node.type == nodes.TRANSLATION_UNIT:
        return ()
    namespace = node.parent if node.type == nodes.DECLARATION_LIST else None
    return _namespace_path(namespace) if namespace is not None and namespace.type == nodes.NAMESPACE else None


def _namespace_path(node: tree_sitter.Node | None) -> tuple[str, ...]:
    path: list[str] = []
    while node is not None:
        if node.type == nodes.NAMESPACE:
            name = node.child_by_field_name(nodes.Field.NAME)
            path.append(name.text.decode() if name is not None and name.text else "")
        node = node.parent
    return tuple(reversed(path))


def _declared_name(node: tree_sitter.Node) -> str:
    """The name a declarator declares: ``p`` of ``*p``, ``f`` of ``f(int)``."""
    while (inner := node.child_by_field_name(nodes.Field.DECLARATOR)) is not None:
        node = inner
    return node.text.decode() if node.text else ""
