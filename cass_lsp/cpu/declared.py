"""What the CPU runtime's own C++ headers declare in a namespace, read from the headers' syntax
trees, so the refusal scan (:mod:`cass_lsp.cpu.refuse`) refuses exactly what they do not offer
instead of keeping a second list by hand: the names of its CUB and the Thrust backend policies it
maps onto Thrust's device system."""

from __future__ import annotations

import functools
from pathlib import Path

import tree_sitter

from cass_lsp.syntax import nodes
from cass_lsp.syntax import parsing as syntax

_QUERY = "cpu_declared"
_RUNTIME = Path(__file__).resolve().parent / "include" / "cass_cpu"


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


def namespace_members(source: bytes, namespace: tuple[str, ...]) -> frozenset[str]:
    """The names declared directly in ``namespace`` (outermost first, the global one left out) of the
    header text ``source``: its classes, enums and their enumerators, functions and variables."""
    names: set[str] = set()
    for _, captured in syntax.matches(_QUERY, syntax.parse(source).root_node):
        if _namespace_path(captured["scope"][0]) == namespace:
            names.update(node.text.decode() for node in captured["declared"] if node.text)
    return frozenset(names)


def _namespace_path(node: tree_sitter.Node | None) -> tuple[str, ...]:
    path: list[str] = []
    while node is not None:
        if node.type == nodes.NAMESPACE:
            name = node.child_by_field_name(nodes.Field.NAME)
            path.append(name.text.decode() if name is not None and name.text else "")
        node = node.parent
    return tuple(reversed(path))
