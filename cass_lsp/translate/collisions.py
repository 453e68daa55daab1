"""User code that collides with what HIP already provides, or leans on a CUDA-only conversion.

CUDA programs define helpers CUDA lacks; when HIP's headers define the same function, the HIP
build fails: a redefinition (``atomicMin(float*, float)``), or an ambiguous call (a free
``operator-=(float4&, float4)`` beside the member operator of HIP's vector types). Such a definition
is kept for CUDA only, behind ``#if !defined(__HIP_PLATFORM_AMD__)``: HIP's own definition does the
same thing, and after a reverse translation the guard is still false on NVIDIA, where the user's
definition is needed. What collides was checked against the HIP 5.2 and 7.1 headers
(``amd_hip_atomic.h``, ``amd_hip_vector_types.h``) with clang:

* ``atomicMin``/``atomicMax`` on ``float*``/``double*``, and ``atomicAdd(double*, double)``:
  HIP defines them (a redefinition).
* A free compound assignment between two vectors of one type (``operator-=(float4&, float4)``),
  a unary ``-``/``~``, ``++``/``--`` on a vector: HIP_vector_type has these as members, equally
  good matches (an ambiguous call). Binary operators and vector-scalar compound ones do not
  collide: HIP's are templates, which lose to the user's function.
"""

from __future__ import annotations

import re

import tree_sitter

from cass_lsp.syntax import nodes
from cass_lsp.translate import codes as fc
from cass_lsp.translate.context import RuleContext

MAKE_UINT3 = "make_uint3"
_CANDIDATES = rb"\b(?:atomicMin|atomicMax|atomicAdd|operator\s*(?:[-+*/%^|&]=|<<=|>>=|\+\+|--|-|~))"
_VECTOR = r"(?:u?char|u?short|u?int|u?long|u?longlong|float|double)[1-4]"
_FLOATING = ("float", "double")
_GUARD = "#if !defined(__HIP_PLATFORM_AMD__)"
# Where a definition is at global scope (HIP's definitions are global).
_GLOBAL_SCOPES = frozenset({nodes.TRANSLATION_UNIT, nodes.LINKAGE, nodes.DECLARATION_LIST, nodes.IF, nodes.IFDEF,
                            nodes.ELSE, nodes.ELIF, nodes.ELIFDEF})
_DECLARATOR_PARENTS = frozenset({nodes.FUNCTION_DEFINITION, nodes.DECLARATION})


def param_types(p: RuleContext, declarator: tree_sitter.Node) -> list[str]:
    """Each parameter's type, spelled without names, qualifiers and spaces (``float*``, ``float4&``)."""
    params = declarator.child_by_field_name(nodes.Field.PARAMETERS)
    if params is None:
        return []
    out = []
    for param in params.named_children:
        if param.type == nodes.COMMENT:
            continue
        text = p.text(param)
        inner = param.child_by_field_name(nodes.Field.DECLARATOR)
        # The name sits at the bottom of the declarators (``float* const& name``).
        while inner is not None and inner.type != nodes.IDENTIFIER:
            inner = next((c for c in inner.named_children if c.type != nodes.COMMENT), None)
        if inner is not None:
            start = inner.start_byte - param.start_byte
            text = text[:start] + text[start + inner.end_byte - inner.start_byte:]
        text = re.sub(r"\b(?:const|volatile|__restrict__|__restrict|struct)\b", " ", text)
        out.append("".join(text.split()))
    return out


def hip_declares(name: str, types: list[str]) -> bool:
    """HIP (5.2 and 7.1) defines a function that this user definition collides with."""
    if name in ("atomicMin", "atomicMax"):
        return len(types) == 2 and types[0] in ("float*", "double*") and types[1] == types[0][:-1]
    if name == "atomicAdd":
        return types == ["double*", "double"]
    op = re.sub(r"\s+", "", name)[len("operator"):]
    vector = re.compile(rf"{_VECTOR}&?")
    if op in ("-", "~", "++", "--") and types and vector.fullmatch(types[0]):
        return len(types) == 1 or (op in ("++", "--") and types[1:] == ["int"])
    if op.endswith("=") and len(types) == 2 and re.fullmatch(rf"{_VECTOR}&", types[0]):
        return types[1].rstrip("&") == types[0][:-1]
    return False


def guard_definitions(p: RuleContext) -> None:
    """Keep user definitions that HIP already has for CUDA only (a finding says which)."""
    for m in re.finditer(_CANDIDATES, p.src[p.lo:p.hi]):
        start = p.lo + m.start()
        _, node = p.context(start, p.lo + m.end())
        declarator = node.parent
        while declarator is not None and declarator.type in (nodes.QUALIFIED, nodes.OPERATOR_NAME):
            declarator = declarator.parent
        if declarator is None or declarator.type != nodes.FUNCTION_DECLARATOR:
            continue
        definition = declarator.parent
        while definition is not None and definition.type in (nodes.POINTER_DECLARATOR, nodes.REFERENCE_DECLARATOR):
            definition = definition.parent
        if definition is None or definition.type not in _DECLARATOR_PARENTS or not p.inside(definition):
            continue
        if not _global(definition):
            continue
        name_node = declarator.child_by_field_name(nodes.Field.DECLARATOR)
        if name_node is None:
            continue
        name = p.text(name_node)
        types = param_types(p, declarator)
        if not hip_declares(name, types):
            continue
        signature = f"{' '.join(name.split())}({', '.join(types)})"
        guarded = _guard(p, definition, signature)
        p.find(fc.NVCC_ISM, "info", f"HIP already defines {signature}: "
               + ("this definition is kept for CUDA only (#if !defined(__HIP_PLATFORM_AMD__)), where it is still "
                  "needed" if guarded else "remove this definition for HIP (clang rejects it there)"),
               name_node.start_byte, name_node.end_byte, name=name.split()[0], family="device")


def _global(definition: tree_sitter.Node) -> bool:
    scope = definition.parent
    while scope is not None and scope.type in _GLOBAL_SCOPES:
        if scope.type == nodes.TRANSLATION_UNIT:
            return True
        scope = scope.parent
    return False


def _guard(p: RuleContext, definition: tree_sitter.Node, signature: str) -> bool:
    """Wrap whole lines of the definition in the guard; False when it shares a line with other code."""
    src = p.src
    line_start = src.rfind(b"\n", 0, definition.start_byte) + 1
    if src[line_start:definition.start_byte].strip(b" \t"):
        return False
    line_end = src.find(b"\n", definition.end_byte)
    line_end = p.hi if line_end == -1 else line_end
    if src[definition.end_byte:line_end].strip(b" \t\r") or line_end > p.hi:
        return False
    eol = "\r\n" if src[line_end - 1:line_end] == b"\r" else "\n"
    if line_end > definition.end_byte and src[line_end - 1:line_end] == b"\r":
        line_end -= 1
    p.edit(line_start, line_start, f"{_GUARD}  // cass: HIP defines {signature}{eol}", "device")
    p.edit(line_end, line_end, f"{eol}#endif", "device")
    return True


def uint3_to_dim3(p: RuleContext, node: tree_sitter.Node) -> bool:
    """``dim3 d = make_uint3(x, y, z)``: CUDA's dim3 converts from uint3, HIP's does not, so the
    call becomes ``dim3(x, y, z)`` where a dim3 is initialised, assigned or a launch argument."""
    p.need_runtime()
    call = p.call_of(node)
    if call is None or not p.inside(call) or not _wants_dim3(p, call):
        return True
    p.edit(node.start_byte, node.end_byte, "dim3", "runtime")
    p.find(fc.NVCC_ISM, "info", "CUDA's dim3 converts from uint3 and HIP's does not: make_uint3 became a dim3 "
           "constructor", node.start_byte, node.end_byte, name=MAKE_UINT3)
    return True


def _wants_dim3(p: RuleContext, call: tree_sitter.Node) -> bool:
    parent = call.parent
    if parent is None:
        return False
    if parent.type == nodes.KERNEL_CALL:
        return True
    if parent.type == nodes.INIT_DECLARATOR and parent.child_by_field_name(nodes.Field.VALUE) == call:
        declaration = parent.parent
        kind = declaration.child_by_field_name(nodes.Field.TYPE) if declaration is not None else None
        return kind is not None and p.text(kind) == "dim3"
    if parent.type == nodes.ASSIGNMENT and parent.child_by_field_name(nodes.Field.RIGHT) == call:
        left = parent.child_by_field_name(nodes.Field.LEFT)
        if left is None or left.type != nodes.IDENTIFIER:
            return False
        declared = rf"\bdim3\s+(?:\w+(?:\s*\([^()]*\))?\s*,\s*)*{re.escape(p.text(left))}\b"
        return re.search(declared, p.file_source.decode("utf-8", "surrogateescape")) is not None
    return False
