"""Overloads that become one function in HIP.

CUDA code overloads a helper on types that are distinct in CUDA and one type in HIP: cuda-samples'
``helper_cuda.h`` defines ``_cudaGetErrorEnum(cudaError_t)`` and ``_cudaGetErrorEnum(CUresult)``, both
``hipError_t`` once translated, a redefinition clang rejects. The later definition is kept behind a
macro that the earlier one defines, so the one the preprocessor reaches first is the one HIP compiles
(each is under its own ``#ifdef`` in that header, and either may be the only one defined); both
describe the same HIP value, and a finding names them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import tree_sitter

from cass_lsp.syntax import nodes
from cass_lsp.translate import codes as fc
from cass_lsp.translate import collisions, entries
from cass_lsp.translate.context import RuleContext

_WORD = re.compile(r"[A-Za-z_]\w*")
# Where a definition is at file scope: preprocessor blocks and extern "C" (a namespace's body is
# another scope, where the same name is another function).
_FILE_SCOPES = frozenset({nodes.TRANSLATION_UNIT, nodes.LINKAGE, nodes.IF, nodes.IFDEF, nodes.ELSE, nodes.ELIF,
                          nodes.ELIFDEF})
_LINKAGE_BODY = "declaration_list"


def _definitions(node: tree_sitter.Node) -> Iterator[tree_sitter.Node]:
    for child in node.named_children:
        if child.type == nodes.FUNCTION_DEFINITION:
            yield child
        elif child.type in _FILE_SCOPES or (child.type == _LINKAGE_BODY and node.type == nodes.LINKAGE):
            yield from _definitions(child)


def _hip_type(cuda: str) -> str:
    def rename(m: re.Match[str]) -> str:
        entry = entries.lookup(m.group(0))
        return entry.hip if entry is not None and entry.supported else m.group(0)
    return _WORD.sub(rename, cuda)


def _function(definition: tree_sitter.Node) -> tuple[tree_sitter.Node, tree_sitter.Node] | None:
    """The definition's function declarator and its (plain) name."""
    declarator = definition.child_by_field_name(nodes.Field.DECLARATOR)
    while declarator is not None and declarator.type in (nodes.POINTER_DECLARATOR, nodes.REFERENCE_DECLARATOR):
        declarator = declarator.child_by_field_name(nodes.Field.DECLARATOR)
    if declarator is None or declarator.type != nodes.FUNCTION_DECLARATOR:
        return None
    name = declarator.child_by_field_name(nodes.Field.DECLARATOR)
    return (declarator, name) if name is not None and name.type == nodes.IDENTIFIER else None


def _lines(p: RuleContext, node: tree_sitter.Node) -> tuple[int, int, str] | None:
    """The start of the node's first line and the end of its last, when it has them to itself."""
    src = p.src
    start = src.rfind(b"\n", 0, node.start_byte) + 1
    end = src.find(b"\n", node.end_byte)
    end = len(src) if end == -1 else end
    eol = "\r\n" if src[end - 1:end] == b"\r" else "\n"
    end -= len(eol) - 1
    if src[start:node.start_byte].strip() or src[node.end_byte:end].strip() or not (p.lo <= start and end <= p.hi):
        return None
    return start, end, eol


def merge(p: RuleContext) -> None:
    """Keep each later definition whose HIP signature repeats an earlier one's behind the earlier's macro."""
    first: dict[tuple[str, tuple[str, ...]], tuple[tuple[str, ...], str]] = {}
    defined: set[str] = set()
    for definition in _definitions(p.root):
        found = _function(definition)
        if found is None or not p.inside(definition):
            continue
        declarator, name_node = found
        name = p.text(name_node)
        cuda = tuple(collisions.param_types(p, declarator))
        hip = tuple(map(_hip_type, cuda))
        key = (name, hip)
        lines = _lines(p, definition)
        if key not in first:
            if lines is not None:
                first[key] = (cuda, re.sub(r"\W", "_", f"CASS_DEFINED_{name}_{'_'.join(hip)}"))
            continue
        earlier, macro = first[key]
        if earlier == cuda or lines is None:
            continue  # the same CUDA signature: #if branches the preprocessor chooses between
        if macro not in defined:
            defined.add(macro)
            # the macro follows the earlier definition (found again: the dict keeps no nodes)
            _define_after_first(p, name, hip, macro)
        start, end, eol = lines
        p.edit(start, start, f"#ifndef {macro}  // cass: {name}({', '.join(hip)}) is defined above{eol}", "runtime")
        p.edit(end, end, f"{eol}#endif", "runtime")
        p.find(fc.NVCC_ISM, "info", f"{name}({', '.join(cuda)}) and {name}({', '.join(earlier)}) are both "
               f"{name}({', '.join(hip)}) in HIP: this one is compiled only where the other is not (#ifndef "
               f"{macro})", name_node.start_byte, name_node.end_byte, name=name, family="runtime")


def _define_after_first(p: RuleContext, name: str, hip: tuple[str, ...], macro: str) -> None:
    for definition in _definitions(p.root):
        found = _function(definition)
        if found is None or p.text(found[1]) != name:
            continue
        if tuple(map(_hip_type, collisions.param_types(p, found[0]))) != hip:
            continue
        lines = _lines(p, definition)
        if lines is not None:
            _, end, eol = lines
            p.edit(end, end, f"{eol}#define {macro}", "runtime")
            return
