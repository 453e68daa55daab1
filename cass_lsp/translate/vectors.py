"""HIP's vector types -> CUDA's (reverse direction).

HIP's ``float4`` and friends are classes: they construct from one scalar (``float4(x)`` sets every
component) or from their components (``float4(a, b, c, d)``), and they have arithmetic and
comparison operators. CUDA's are plain structs with neither. Constructions become ``make_float4``
calls: one scalar is repeated when it is a name, a literal or a member or element of one (reading
it again costs nothing and changes nothing); any other scalar (a call, arithmetic, ``*p++``) goes
through ``cass_splat_float4(expr)``, a helper that evaluates it once. The operators a file uses on
a vector type are defined once, as a marked compatibility helper per (type, operator). ``compat.render``
writes the helpers; their keys are ``vector-op:TYPE:OP`` and ``vector-splat:TYPE``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

import tree_sitter

from cass_lsp.syntax import nodes
from cass_lsp.translate.context import RuleContext

if TYPE_CHECKING:
    from cass_lsp.translate.compat import HelperContext

# HIP vector type stem -> component type.
_COMPONENTS = {"char": "signed char", "uchar": "unsigned char", "short": "short", "ushort": "unsigned short",
               "int": "int", "uint": "unsigned int", "long": "long", "ulong": "unsigned long",
               "longlong": "long long", "ulonglong": "unsigned long long", "float": "float", "double": "double"}
_FIELDS = ("x", "y", "z", "w")
TYPES: dict[str, tuple[str, int]] = {f"{stem}{n}": (component, n) for stem, component in _COMPONENTS.items()
                                     for n in range(1, 5)}
_ARITHMETIC = ("+", "-", "*", "/")
_COMPOUND = {"+=": "+", "-=": "-", "*=": "*", "/=": "/"}
_COMPARISON = ("==", "!=")
# A scalar repeated N times: a name or literal, with members and constant or named subscripts
# (``s``, ``1.0f``, ``p.x``, ``in[i].y``). Compiled on first use: the CLI's start-up path imports this.
_REPEATABLE = r"\s*[\w.]+(?:\s*(?:\[\s*[\w.]+\s*\]|(?:\.|->)\s*\w+))*\s*"
_HELPER_PREFIX = "vector-op:"
_SPLAT_PREFIX = "vector-splat:"
_OPERATOR_NAMES = {"+": "plus", "-": "minus", "*": "times", "/": "divide", "==": "eq", "!=": "ne", "neg": "neg",
                   "+=": "plus_assign", "-=": "minus_assign", "*=": "times_assign", "/=": "divide_assign"}


def construct(p: HelperContext, name: str, node: tree_sitter.Node) -> bool:
    """``float4(x)`` -> ``make_float4(x, x, x, x)``, ``float4(f(x))`` -> ``cass_splat_float4(f(x))``,
    ``float4(a, b, c, d)`` -> ``make_float4(...)``."""
    call = p.call_of(node)
    if call is None or not p.inside(call) or node.type != nodes.IDENTIFIER:
        return True
    _, n = TYPES[name]
    args = p.arguments(call)
    if len(args) == n:
        p.edit(node.start_byte, node.end_byte, f"make_{name}", "device")
    elif len(args) == 1:
        value = p.text(args[0])
        if re.fullmatch(_REPEATABLE, value) is None:
            p.edit(node.start_byte, node.end_byte, f"cass_splat_{name}", "device")
            p.need_helper(f"{_SPLAT_PREFIX}{name}", call.start_byte)
            return True
        p.edit(node.start_byte, node.end_byte, f"make_{name}", "device")
        p.edit(args[0].end_byte, args[0].end_byte, "".join(f", {value}" for _ in range(n - 1)))
    return True


def reverse_operators(p: HelperContext) -> None:
    """Every operator the window applies to a HIP vector type -> a compatibility helper defining it."""
    variables = _vector_variables(p.file_source)
    if not variables:
        return
    for node, vector, op in _operator_uses(p, variables):
        if p.inside(node):
            p.need_helper(f"{_HELPER_PREFIX}{vector}:{op}", node.start_byte)


def _vector_variables(source: bytes) -> dict[str, str]:
    """Variable and parameter name -> vector type, from the file's declarations."""
    names = [t for t in TYPES if t.encode() in source]
    if not names:
        return {}
    pattern = re.compile(rb"\b(" + b"|".join(n.encode() for n in names) + rb")\s*(?:const\s*)?&?\s*"
                         rb"([A-Za-z_]\w*)\s*(?=[=;,)\[{(])")
    return {m[2].decode(): m[1].decode() for m in pattern.finditer(source)}


def _operator_uses(p: RuleContext, variables: dict[str, str]) -> Iterator[tuple[tree_sitter.Node, str, str]]:
    stack = [p.root]
    while stack:
        node = stack.pop()
        stack.extend(node.children)
        kind = node.type
        if kind == nodes.BINARY:
            op = node.child_by_field_name(nodes.Field.OPERATOR)
            text = p.text(op) if op is not None else ""
            if text in _ARITHMETIC or text in _COMPARISON:
                left = _vector_of(p, node.child_by_field_name(nodes.Field.LEFT), variables)
                right = _vector_of(p, node.child_by_field_name(nodes.Field.RIGHT), variables)
                vector = left or right
                if vector is not None:
                    yield node, vector, text
        elif kind == nodes.ASSIGNMENT:
            op = node.child_by_field_name(nodes.Field.OPERATOR)
            text = p.text(op) if op is not None else ""
            vector = _vector_of(p, node.child_by_field_name(nodes.Field.LEFT), variables)
            if text in _COMPOUND and vector is not None:
                yield node, vector, text
        elif kind == nodes.UNARY:
            op = node.child_by_field_name(nodes.Field.OPERATOR)
            vector = _vector_of(p, node.child_by_field_name(nodes.Field.ARGUMENT), variables)
            if op is not None and p.text(op) == "-" and vector is not None:
                yield node, vector, "neg"


def _vector_of(p: RuleContext, node: tree_sitter.Node | None, variables: dict[str, str]) -> str | None:
    """The HIP vector type of an operand, as far as the file tells (None: a scalar or unknown)."""
    while node is not None and node.type == nodes.PARENTHESIZED:
        node = node.named_children[0] if node.named_children else None
    if node is None:
        return None
    if node.type == nodes.IDENTIFIER:
        return variables.get(p.text(node))
    if node.type == nodes.CALL:
        function = node.child_by_field_name(nodes.Field.FUNCTION)
        name = p.text(function) if function is not None else ""
        name = name.removeprefix("make_")
        return name if name in TYPES else None
    if node.type in (nodes.BINARY, nodes.UNARY):
        op = node.child_by_field_name(nodes.Field.OPERATOR)
        if op is None or p.text(op) in _COMPARISON:
            return None
        for field in (nodes.Field.LEFT, nodes.Field.RIGHT, nodes.Field.ARGUMENT):
            found = _vector_of(p, node.child_by_field_name(field), variables)
            if found is not None:
                return found
    return None


def is_helper(key: str) -> bool:
    return key.startswith((_HELPER_PREFIX, _SPLAT_PREFIX))


def helper(key: str) -> tuple[str, str, str]:
    """(guard, why, code) of the helper ``vector-op:TYPE:OP`` or ``vector-splat:TYPE``."""
    if key.startswith(_SPLAT_PREFIX):
        return _splat(key.removeprefix(_SPLAT_PREFIX))
    _, vector, op = key.split(":", 2)
    component, n = TYPES[vector]
    fields = _FIELDS[:n]
    sig = "__host__ __device__ inline"
    guard = f"CASS_VECTOR_{vector.upper()}_{_OPERATOR_NAMES[op].upper()}"
    why = f"HIP's {vector} has operator{'-' if op == 'neg' else op}; CUDA's has none"
    make = f"make_{vector}"
    if op == "neg":
        code = f"{sig} {vector} operator-({vector} a) {{ return {make}({', '.join(f'-a.{f}' for f in fields)}); }}\n"
    elif op in _ARITHMETIC:
        code = (f"{sig} {vector} operator{op}({vector} a, {vector} b) "
                f"{{ return {make}({', '.join(f'a.{f} {op} b.{f}' for f in fields)}); }}\n"
                f"{sig} {vector} operator{op}({vector} a, {component} s) "
                f"{{ return {make}({', '.join(f'a.{f} {op} s' for f in fields)}); }}\n"
                f"{sig} {vector} operator{op}({component} s, {vector} a) "
                f"{{ return {make}({', '.join(f's {op} a.{f}' for f in fields)}); }}\n")
    elif op in _COMPOUND:
        code = (f"{sig} {vector}& operator{op}({vector}& a, {vector} b) "
                f"{{ {' '.join(f'a.{f} {op} b.{f};' for f in fields)} return a; }}\n"
                f"{sig} {vector}& operator{op}({vector}& a, {component} s) "
                f"{{ {' '.join(f'a.{f} {op} s;' for f in fields)} return a; }}\n")
    else:
        equal = " && ".join(f"a.{f} == b.{f}" for f in fields)
        equal_s = " && ".join(f"a.{f} == s" for f in fields)
        neg = "!" if op == "!=" else ""
        code = (f"{sig} bool operator{op}({vector} a, {vector} b) {{ return {neg}({equal}); }}\n"
                f"{sig} bool operator{op}({vector} a, {component} s) {{ return {neg}({equal_s}); }}\n")
    return guard, why, code


def _splat(vector: str) -> tuple[str, str, str]:
    component, n = TYPES[vector]
    code = (f"__host__ __device__ inline {vector} cass_splat_{vector}({component} v) "
            f"{{ return make_{vector}({', '.join('v' for _ in range(n))}); }}\n")
    return (f"CASS_SPLAT_{vector.upper()}", f"HIP's {vector}(v) sets every component to v; CUDA's {vector} has no "
            "such constructor, and v is evaluated once", code)
