"""The declarations a region of a file needs, carried to the model with it.

A kernel sent alone to the model does not say what `real`, `N` or `coef` are; the file-level
definitions before it that it names (macros, typedefs, `using` aliases, structs and classes,
global and `__constant__` variables) go in front of it in the prompt, and only the region's own
translation is taken back from the answer (:func:`function_in`). Function definitions are not
carried: the model needs what names mean, not other code to translate.
"""

from __future__ import annotations

import re

import tree_sitter

from cass_lsp.syntax import nodes
from cass_lsp.syntax.document import CudaDocument

_CARRIED = frozenset(
    {
        nodes.MACRO_DEFINITION,
        nodes.FUNCTION_MACRO_DEFINITION,
        nodes.TYPE_DEFINITION,
        nodes.ALIAS,
        nodes.DECLARATION,
        *nodes.TAG_SPECIFIERS,
    }
)
_NAMED = frozenset({nodes.MACRO_DEFINITION, nodes.FUNCTION_MACRO_DEFINITION, nodes.ALIAS, *nodes.TAG_SPECIFIERS})
_WORD = re.compile(rb"[A-Za-z_]\w*")


def _declared(node: tree_sitter.Node) -> set[bytes]:
    """The names a top-level item declares."""
    if node.type in _NAMED:
        name = node.child_by_field_name(nodes.Field.NAME)
        return {name.text} if name is not None and name.text else set()
    names: set[bytes] = set()
    kind = node.child_by_field_name(nodes.Field.TYPE)
    if kind is not None and kind.type in nodes.TAG_SPECIFIERS:
        names |= _declared(kind)
    for declarator in node.children_by_field_name(nodes.Field.DECLARATOR):
        # the declared name is the declarator's first identifier (`coef` of `coef[N]`, `M` of `M = 4`)
        found = _WORD.search(declarator.text or b"")
        if found:
            names.add(found.group())
    return names


def declarations_for(source: bytes, tree: tree_sitter.Tree, start: int, end: int) -> str:
    """The file-level declarations before [start, end) that the region names, in file order."""
    used = set(_WORD.findall(source[start:end]))
    carried = []
    for node in tree.root_node.children:
        if node.end_byte > start:
            break
        if node.type in _CARRIED and _declared(node) & used:
            text = source[node.start_byte : node.end_byte].decode("utf-8", "surrogateescape").rstrip()
            # a struct's `;` is a node of its own
            carried.append(text + ";" if node.type in nodes.TAG_SPECIFIERS else text)
    return "".join(f"{text}\n" for text in carried)


def function_in(code: str, name: str) -> str | None:
    """The definition of function ``name`` in the model's answer, if it has one."""
    doc = CudaDocument("file:///answer.cu", code)
    found = [f for f in doc.constructs.functions if f.name == name]
    if not found:
        return None
    span = found[-1].span
    return doc.source[span.start : span.end].decode("utf-8", "surrogatepass")
