"""Inline PTX for the CPU runtime: an ``asm("...")`` statement translated to calls of ``cass_cpu/ptx.hpp``.

The template string and its operands are read from the syntax tree; each instruction becomes one C++
statement with the PTX ISA's semantics, and the whole statement becomes ``[&]() { ... }()`` (an
expression, like the asm it replaces, on the same lines). What is not translated is refused by name:
``PTX instruction X (line N)``; AMD GCN assembly is refused as such.
"""

from __future__ import annotations

import re

import msgspec
import tree_sitter

from cass_lsp.syntax import parsing as syntax

_INT_TYPES = {
    "u8": "std::uint8_t", "s8": "std::int8_t", "u16": "std::uint16_t", "s16": "std::int16_t", "b16": "std::uint16_t",
    "u32": "std::uint32_t", "s32": "std::int32_t", "b32": "std::uint32_t", "u64": "std::uint64_t",
    "s64": "std::int64_t", "b64": "std::uint64_t", "b8": "std::uint8_t",
}  # fmt: skip
_FLOAT_TYPES = {"f32": "float", "f64": "double"}
_TYPES = {**_INT_TYPES, **_FLOAT_TYPES, "pred": "bool"}
_SPECIAL = {
    "laneid": "::cass::ptx::laneid()", "warpid": "::cass::ptx::warpid()", "nwarpid": "::cass::ptx::nwarpid()",
    "smid": "0u", "nsmid": "1u", "gridid": "0ull", "clock": "static_cast<std::uint32_t>(clock64())",
    "clock64": "static_cast<std::uint64_t>(clock64())", "globaltimer": "::cass::ptx::globaltimer()",
    "lanemask_eq": "::cass::ptx::lanemask(0)", "lanemask_lt": "::cass::ptx::lanemask(1)",
    "lanemask_le": "::cass::ptx::lanemask(2)", "lanemask_gt": "::cass::ptx::lanemask(3)",
    "lanemask_ge": "::cass::ptx::lanemask(4)", "warpsize": "static_cast<unsigned>(warpSize)",
}  # fmt: skip
for _reg, _var in (("tid", "threadIdx"), ("ntid", "blockDim"), ("ctaid", "blockIdx"), ("nctaid", "gridDim")):
    for _axis in "xyz":
        _SPECIAL[f"{_reg}.{_axis}"] = f"static_cast<unsigned>({_var}.{_axis})"
_PRMT_MODES = {"f4e": 1, "b4e": 2, "rc8": 3, "ecl": 4, "ecr": 5, "rc16": 6}
_ROUNDING = {"rn": 0, "rz": 1, "rm": 2, "rp": 3, "rni": 0, "rzi": 1, "rmi": 2, "rpi": 3}
_COMPARE = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">=",
            "lo": "<", "ls": "<=", "hi": ">", "hs": ">="}  # fmt: skip
_AMD = re.compile(r"^(?:s_|v_|ds_|buffer_|flat_|global_load|global_store|scratch_)\w*")
_NUMBER = re.compile(r"^-?(?:0[xX][0-9a-fA-F]+|\d+)[uU]?$")
_FLOAT_HEX = re.compile(r"^0([fFdD])([0-9a-fA-F]+)$")
_REGISTER = re.compile(r"^%?[A-Za-z_$][\w$]*$")
_DECLARED = re.compile(r"^(?P<name>%?[A-Za-z_$][\w$]*)(?:<(?P<count>\d+)>)?$")
_ADDRESS = re.compile(r"^\[\s*(?P<base>[^\]+]+?)\s*(?:\+\s*(?P<offset>-?\w+))?\s*\]$")


class Untranslated(Exception):
    """An instruction the translator does not execute; ``line`` is 0-based in the source file."""

    def __init__(self, instruction: str, line: int, amd: bool = False) -> None:
        super().__init__(instruction)
        self.instruction, self.line, self.amd = instruction, line, amd


class Operand(msgspec.Struct, frozen=True):
    constraint: str
    expression: str


class _Instruction(msgspec.Struct):
    text: str
    line: int


def translate(source: bytes, node: tree_sitter.Node) -> str:
    """The C++ expression that executes the ``gnu_asm_expression`` ``node``; raises :class:`Untranslated`."""
    template, outputs, inputs = _parts(source, node)
    operands = [*outputs, *inputs]
    names: list[str] = []
    binds: list[str] = []
    for i, operand in enumerate(operands):
        name = f"cass_asm{i}"
        names.append(name)
        if i < len(outputs):
            binds.append(f"auto& {name} = ({operand.expression});")
        else:
            binds.append(f"const auto {name} = ({operand.expression});")
    body = _Translator(names).run(template)
    return "[&]() { " + " ".join(binds + body) + " }()"


_MACRO_WRAP = b"void cass_macro_body() {\n"
_ASM_WORD = re.compile(rb"\b(?:asm|__asm__|__asm)\b")


def in_macro_body(body: str) -> list[tuple[int, int, str]]:
    """The asm statements of a ``#define`` body (text to the grammar), translated: (start, end,
    replacement) in ``body``'s characters; raises :class:`Untranslated` (line relative to the body)."""
    encoded = body.encode("utf-8")
    if not _ASM_WORD.search(encoded):
        return []
    wrapped = _MACRO_WRAP + encoded + b"\n;}"
    found: list[tree_sitter.Node] = []
    pending = [syntax.parse(wrapped).root_node]
    while pending:
        node = pending.pop()
        if node.type == "gnu_asm_expression":
            found.append(node)
        else:
            pending.extend(node.children)
    if len(found) != len(_ASM_WORD.findall(encoded)):
        raise Untranslated("asm in a #define body", 0)
    edits = []
    for node in found:
        start, end = node.start_byte - len(_MACRO_WRAP), node.end_byte - len(_MACRO_WRAP)
        if b"\n" in encoded[start:end]:
            raise Untranslated("asm spread over a #define's lines", node.start_point.row - 1)
        try:
            replacement = translate(wrapped, node)
        except Untranslated as why:
            raise Untranslated(why.instruction, why.line - 1, why.amd) from None
        edits.append((len(encoded[:start].decode("utf-8")), len(encoded[:end].decode("utf-8")), replacement))
    return edits


def refusal(source: bytes, node: tree_sitter.Node) -> Untranslated | None:
    try:
        translate(source, node)
    except Untranslated as why:
        return why
    return None


def _parts(source: bytes, node: tree_sitter.Node) -> tuple[list[_Instruction], list[Operand], list[Operand]]:
    code = node.child_by_field_name("assembly_code")
    if code is None:
        raise Untranslated("asm without a template string", node.start_point.row)
    pieces: list[tuple[str, int]] = []
    literals = [code] if code.type == "string_literal" else [c for c in code.named_children if c.type == "string_literal"]
    if not literals:
        raise Untranslated("asm template", node.start_point.row)
    for literal in literals:
        for child in literal.named_children:
            raw = source[child.start_byte : child.end_byte].decode("utf-8", "replace")
            if child.type == "escape_sequence":
                raw = {"\\n": "\n", "\\t": " ", '\\"': '"', "\\\\": "\\"}.get(raw, " ")
            pieces.append((raw, child.start_point.row))
    instructions: list[_Instruction] = []
    current, line, vector = "", node.start_point.row, 0
    for text, row in pieces:
        for ch in text:
            if not current.strip():
                line = row
            # a brace inside an instruction is a vector operand ({%0, %1}), elsewhere a scope
            if (ch == "{" and current.strip()) or (ch == "}" and vector):
                vector += 1 if ch == "{" else -1
                current += ch
            elif ch in ";{}\n":
                if current.strip():
                    instructions.append(_Instruction(current.strip(), line))
                if ch in "{}":
                    instructions.append(_Instruction(ch, row))
                current = ""
            else:
                current += ch
    if current.strip():
        instructions.append(_Instruction(current.strip(), line))
    return instructions, _operands(source, node, "output_operands"), _operands(source, node, "input_operands")


def _operands(source: bytes, node: tree_sitter.Node, field: str) -> list[Operand]:
    listing = node.child_by_field_name(field)
    if listing is None:
        return []
    out = []
    for operand in listing.named_children:
        constraint = operand.child_by_field_name("constraint")
        value = operand.child_by_field_name("value")
        if constraint is None or value is None:
            raise Untranslated("asm operand", operand.start_point.row)
        text = source[constraint.start_byte : constraint.end_byte].decode("utf-8").strip('"')
        if not re.fullmatch(r"[=+&]*[rlhfdnc]", text):
            raise Untranslated(f'asm operand "{text}"', operand.start_point.row)
        out.append(Operand(text, source[value.start_byte : value.end_byte].decode("utf-8")))
    return out


class _Translator:
    def __init__(self, operands: list[str]) -> None:
        self.operands = operands
        self.locals: dict[str, str] = {}  # PTX register name -> C++ name

    def run(self, instructions: list[_Instruction]) -> list[str]:
        out = []
        for instruction in instructions:
            text = instruction.text
            if text in "{}":
                out.append(text)
                continue
            try:
                out.append(self._one(text))
            except (KeyError, IndexError, ValueError) as why:
                raise Untranslated(_opcode(text), instruction.line) from why
            except Untranslated as why:
                raise Untranslated(why.instruction, instruction.line, why.amd) from None
        return out

    # ---- operands ----
    def _value(self, token: str, type_: str) -> str:
        """``token`` read as PTX type ``type_`` (a C++ type name)."""
        token = token.strip()
        if re.fullmatch(r"%\d+", token):
            return f"::cass::ptx::get<{type_}>({self.operands[int(token[1:])]})"
        if token[1:] in self.locals:  # %%r1: a register the template declared (.reg .u32 %r1)
            return f"::cass::ptx::get<{type_}>({self.locals[token[1:]]})"
        if token.startswith("%%"):
            return f"static_cast<{type_}>({_SPECIAL[token[2:]]})"
        if _NUMBER.match(token):
            return f"static_cast<{type_}>({token.rstrip('uU')}ull)" if not token.startswith("-") else f"static_cast<{type_}>({token})"
        m = _FLOAT_HEX.match(token)
        if m:
            kind = "float" if m[1] in "fF" else "double"
            bits = "std::uint32_t" if kind == "float" else "std::uint64_t"
            return f"::cass::ptx::get<{type_}>(::cass::ptx::get<{kind}>(static_cast<{bits}>(0x{m[2]}ull)))"
        if token in self.locals:
            return f"::cass::ptx::get<{type_}>({self.locals[token]})"
        raise ValueError(token)

    def _target(self, token: str) -> str:
        token = token.strip()
        if re.fullmatch(r"%\d+", token):
            return self.operands[int(token[1:])]
        if token in self.locals:
            return self.locals[token]
        if token[1:] in self.locals:
            return self.locals[token[1:]]
        if token == "_":
            return "cass_sink"
        raise ValueError(token)

    def _set(self, token: str, type_: str, value: str) -> str:
        target = self._target(token)
        if target == "cass_sink":
            return f"(void)({value});"
        return f"::cass::ptx::set<{type_}>({target}, {value});"

    def _address(self, token: str) -> str:
        m = _ADDRESS.match(token.strip())
        if m is None:
            raise ValueError(token)
        base = self._value(m["base"], "std::uint64_t")
        offset = m["offset"]
        return f"({base} + static_cast<std::uint64_t>({int(offset, 0)}ll))" if offset else base

    # ---- instructions ----
    def _one(self, text: str) -> str:
        guard = ""
        if text.startswith("@"):
            predicate, text = text[1:].split(None, 1)
            negate = predicate.startswith("!")
            guard = f"if ({'!' if negate else ''}{self._value(predicate.lstrip('!'), 'bool')}) "
        parts = text.split(None, 1)
        opcode = parts[0]
        operands = _split_operands(parts[1]) if len(parts) > 1 else []
        if _AMD.match(opcode):
            raise Untranslated(opcode, 0, amd=True)
        if opcode == ".reg":
            return self._declare(operands, parts[1])
        tokens = opcode.split(".")
        handler = getattr(self, "_op_" + tokens[0], None)
        if handler is None:
            raise Untranslated(opcode, 0)
        statement = handler(tokens[1:], operands)
        if statement is None:
            raise Untranslated(opcode, 0)
        return guard + statement

    def _declare(self, _operands: list[str], rest: str) -> str:
        type_token, _, names = rest.strip().partition(" ")
        type_ = _TYPES.get(type_token.lstrip("."))
        if type_ is None:
            raise ValueError(type_token)
        declared = []
        for name in _split_operands(names):
            m = _DECLARED.match(name.strip().replace("%%", "%", 1))
            if m is None:
                raise ValueError(name)
            count = int(m["count"]) if m["count"] else None
            for index in range(count) if count is not None else [None]:
                ptx_name = m["name"] + ("" if index is None else str(index))
                cxx = "cass_r_" + re.sub(r"\W", "_", ptx_name)
                self.locals[ptx_name] = cxx
                declared.append(f"{cxx}{{}}")
        return f"{type_} {', '.join(declared)};"

    def _op_mov(self, mods: list[str], ops: list[str]) -> str | None:
        t = _type(mods)
        if ops[0].startswith("{") or ops[1].startswith("{"):
            return self._pack(t, ops)
        return self._set(ops[0], t, self._value(ops[1], t))

    def _pack(self, t: str, ops: list[str]) -> str | None:
        """``mov.b64 %0, {%1, %2}`` (low element first) and its inverse ``mov.b64 {%0, %1}, %2``."""
        if t not in ("std::uint64_t", "std::uint32_t"):
            return None
        half = "std::uint32_t" if t == "std::uint64_t" else "std::uint16_t"
        width = _size(half) * 8
        if ops[1].startswith("{"):
            lo, hi = (self._value(x, t) for x in _vector(ops[1], 2))
            mask = f"static_cast<{t}>({(1 << width) - 1}ull)"
            return self._set(ops[0], t, f"static_cast<{t}>(({lo} & {mask}) | ({hi} << {width}))")
        whole = self._value(ops[1], t)
        lo_target, hi_target = _vector(ops[0], 2)
        return (self._set(lo_target, half, f"static_cast<{half}>({whole})") + " "
                + self._set(hi_target, half, f"static_cast<{half}>({whole} >> {width})"))

    def _binary(self, helper: str, mods: list[str], ops: list[str]) -> str:
        t = _type(mods)
        return self._set(ops[0], t, f"{helper}<{t}>({self._value(ops[1], t)}, {self._value(ops[2], t)})")

    def _op_add(self, mods: list[str], ops: list[str]) -> str | None:
        return self._add_sub("add", mods, ops)

    def _op_sub(self, mods: list[str], ops: list[str]) -> str | None:
        return self._add_sub("sub", mods, ops)

    def _add_sub(self, op: str, mods: list[str], ops: list[str]) -> str | None:
        t = _type(mods)
        if t in _FLOAT_TYPES.values():
            if not _plain_float(mods):
                return None
            return self._set(ops[0], t, f"{self._value(ops[1], t)} {'+' if op == 'add' else '-'} {self._value(ops[2], t)}")
        if "sat" in mods:
            return None
        if "cc" in mods:
            return self._carry(op, False, True, t, ops)
        return self._binary(f"::cass::ptx::{op}", mods, ops)

    def _op_addc(self, mods: list[str], ops: list[str]) -> str | None:
        return self._carry("add", True, "cc" in mods, _type(mods), ops)

    def _op_subc(self, mods: list[str], ops: list[str]) -> str | None:
        return self._carry("sub", True, "cc" in mods, _type(mods), ops)

    def _carry(self, op: str, carry_in: bool, carry_out: bool, t: str, ops: list[str]) -> str:
        helper = "add_carry" if op == "add" else "sub_carry"
        args = f"{self._value(ops[1], t)}, {self._value(ops[2], t)}, {_bool(carry_in)}, {_bool(carry_out)}"
        return self._set(ops[0], t, f"::cass::ptx::{helper}<{t}>({args})")

    def _op_mul(self, mods: list[str], ops: list[str]) -> str | None:
        t = _type(mods)
        if t in _FLOAT_TYPES.values():
            return self._set(ops[0], t, f"{self._value(ops[1], t)} * {self._value(ops[2], t)}") if _plain_float(mods) else None
        if "wide" in mods:
            wide = _wide(t)
            return self._set(ops[0], wide, f"::cass::ptx::mul_wide<{t}>({self._value(ops[1], t)}, {self._value(ops[2], t)})")
        if "hi" in mods:
            return self._binary("::cass::ptx::mul_hi", mods, ops)
        if "lo" in mods:
            return self._binary("::cass::ptx::mul_lo", mods, ops)
        return None

    def _op_mad(self, mods: list[str], ops: list[str]) -> str | None:
        return self._mad(mods, ops, carry_in=False)

    def _op_madc(self, mods: list[str], ops: list[str]) -> str | None:
        return self._mad(mods, ops, carry_in=True)

    def _mad(self, mods: list[str], ops: list[str], carry_in: bool) -> str | None:
        t = _type(mods)
        if t in _FLOAT_TYPES.values():
            return self._op_fma(mods, ops) if not carry_in else None
        a, b = self._value(ops[1], t), self._value(ops[2], t)
        if "wide" in mods:
            if carry_in or "cc" in mods:
                return None
            wide = _wide(t)
            return self._set(ops[0], wide, f"::cass::ptx::add<{wide}>(::cass::ptx::mul_wide<{t}>({a}, {b}), {self._value(ops[3], wide)})")
        if "hi" not in mods and "lo" not in mods:
            return None
        args = f"{a}, {b}, {self._value(ops[3], t)}, {_bool('hi' in mods)}, {_bool(carry_in)}, {_bool('cc' in mods)}"
        return self._set(ops[0], t, f"::cass::ptx::mad_carry<{t}>({args})")

    def _op_fma(self, mods: list[str], ops: list[str]) -> str | None:
        t = _type(mods)
        if t not in _FLOAT_TYPES.values() or not _plain_float(mods):
            return None
        a, b, c = (self._value(x, t) for x in ops[1:4])
        return self._set(ops[0], t, f"std::fma({a}, {b}, {c})")

    def _logic(self, op: str, mods: list[str], ops: list[str]) -> str:
        t = _type(mods)
        return self._set(ops[0], t, f"static_cast<{t}>({self._value(ops[1], t)} {op} {self._value(ops[2], t)})")

    def _op_and(self, mods: list[str], ops: list[str]) -> str | None:
        return self._logic("&", mods, ops) if _type(mods) != "bool" else self._logic("&&", mods, ops)

    def _op_or(self, mods: list[str], ops: list[str]) -> str | None:
        return self._logic("|", mods, ops) if _type(mods) != "bool" else self._logic("||", mods, ops)

    def _op_xor(self, mods: list[str], ops: list[str]) -> str | None:
        return self._logic("^", mods, ops)

    def _op_not(self, mods: list[str], ops: list[str]) -> str | None:
        t = _type(mods)
        op = "!" if t == "bool" else "~"
        return self._set(ops[0], t, f"static_cast<{t}>({op}{self._value(ops[1], t)})")

    def _op_shl(self, mods: list[str], ops: list[str]) -> str | None:
        t = _type(mods)
        return self._set(ops[0], t, f"::cass::ptx::shl<{t}>({self._value(ops[1], t)}, {self._value(ops[2], 'std::uint32_t')})")

    def _op_shr(self, mods: list[str], ops: list[str]) -> str | None:
        t = _type(mods)
        return self._set(ops[0], t, f"::cass::ptx::shr<{t}>({self._value(ops[1], t)}, {self._value(ops[2], 'std::uint32_t')})")

    def _op_min(self, mods: list[str], ops: list[str]) -> str | None:
        return self._minmax("min", mods, ops)

    def _op_max(self, mods: list[str], ops: list[str]) -> str | None:
        return self._minmax("max", mods, ops)

    def _minmax(self, op: str, mods: list[str], ops: list[str]) -> str | None:
        t = _type(mods)
        if any(m not in _TYPES for m in mods):
            return None
        a, b = self._value(ops[1], t), self._value(ops[2], t)
        if t in _FLOAT_TYPES.values():
            return self._set(ops[0], t, f"std::f{op}({a}, {b})")
        return self._set(ops[0], t, f"std::{op}<{t}>({a}, {b})")

    def _op_bfe(self, mods: list[str], ops: list[str]) -> str | None:
        t = _type(mods)
        u = "std::uint32_t"
        return self._set(ops[0], t, f"::cass::ptx::bfe<{t}>({self._value(ops[1], t)}, {self._value(ops[2], u)}, {self._value(ops[3], u)})")

    def _op_bfi(self, mods: list[str], ops: list[str]) -> str | None:
        t = _type(mods)
        u = "std::uint32_t"
        args = f"{self._value(ops[1], t)}, {self._value(ops[2], t)}, {self._value(ops[3], u)}, {self._value(ops[4], u)}"
        return self._set(ops[0], t, f"::cass::ptx::bfi<{t}>({args})")

    def _op_prmt(self, mods: list[str], ops: list[str]) -> str | None:
        u = "std::uint32_t"
        modes = [m for m in mods if m != "b32"]
        if len(modes) > 1 or (modes and modes[0] not in _PRMT_MODES):
            return None
        mode = _PRMT_MODES[modes[0]] if modes else 0
        args = ", ".join(self._value(x, u) for x in ops[1:4])
        return self._set(ops[0], u, f"::cass::ptx::prmt({args}, {mode})")

    def _op_lop3(self, mods: list[str], ops: list[str]) -> str | None:
        u = "std::uint32_t"
        args = ", ".join(self._value(x, u) for x in ops[1:5])
        return self._set(ops[0], u, f"::cass::ptx::lop3({args})")

    def _op_shf(self, mods: list[str], ops: list[str]) -> str | None:
        u = "std::uint32_t"
        if not ({"l", "r"} & set(mods)) or not ({"wrap", "clamp"} & set(mods)):
            return None
        args = ", ".join(self._value(x, u) for x in ops[1:4])
        return self._set(ops[0], u, f"::cass::ptx::shf({args}, {_bool('l' in mods)}, {_bool('wrap' in mods)})")

    def _op_brev(self, mods: list[str], ops: list[str]) -> str | None:
        t = _type(mods)
        return self._set(ops[0], t, f"::cass::ptx::brev<{t}>({self._value(ops[1], t)})")

    def _op_popc(self, mods: list[str], ops: list[str]) -> str | None:
        t = _type(mods)
        return self._set(ops[0], "std::uint32_t", f"::cass::ptx::popc<{t}>({self._value(ops[1], t)})")

    def _op_clz(self, mods: list[str], ops: list[str]) -> str | None:
        t = _type(mods)
        return self._set(ops[0], "std::uint32_t", f"::cass::ptx::clz<{t}>({self._value(ops[1], t)})")

    def _op_bfind(self, mods: list[str], ops: list[str]) -> str | None:
        t = _type(mods)
        return self._set(ops[0], "std::uint32_t", f"::cass::ptx::bfind<{t}>({self._value(ops[1], t)}, {_bool('shiftamt' in mods)})")

    def _op_setp(self, mods: list[str], ops: list[str]) -> str | None:
        t = _type(mods)
        compare = _COMPARE.get(mods[0])
        if compare is None or len(ops) != 3:
            return None
        return self._set(ops[0], "bool", f"({self._value(ops[1], t)} {compare} {self._value(ops[2], t)})")

    def _op_selp(self, mods: list[str], ops: list[str]) -> str | None:
        t = _type(mods)
        return self._set(ops[0], t, f"({self._value(ops[3], 'bool')} ? {self._value(ops[1], t)} : {self._value(ops[2], t)})")

    def _op_cvt(self, mods: list[str], ops: list[str]) -> str | None:
        if "f16" in mods:
            return self._half(mods, ops)
        types = [m for m in mods if m in _TYPES]
        rest = [m for m in mods if m not in _TYPES]
        if len(types) != 2 or any(m not in _ROUNDING and m not in ("sat", "ftz") for m in rest):
            return None
        dst, src = _TYPES[types[0]], _TYPES[types[1]]
        rounding = next((m for m in rest if m in _ROUNDING), "rn")
        if "ftz" in rest or (dst in _FLOAT_TYPES.values() and rounding in ("rz", "rm", "rp")):
            return None  # a float result in another rounding mode than the CPU's, or flushed denormals
        args = f"{self._value(ops[1], src)}, {_ROUNDING[rounding]}, {_bool(rounding.endswith('i'))}, {_bool('sat' in rest)}"
        return self._set(ops[0], dst, f"::cass::ptx::cvt<{dst}, {src}>({args})")

    def _half(self, mods: list[str], ops: list[str]) -> str | None:
        u16 = "std::uint16_t"
        if mods == ["rn", "f16", "f32"]:
            return self._set(ops[0], u16, f"::cass::ptx::f32_to_f16({self._value(ops[1], 'float')})")
        if mods == ["f32", "f16"]:
            return self._set(ops[0], "float", f"::cass::ptx::f16_to_f32({self._value(ops[1], u16)})")
        return None

    def _op_ld(self, mods: list[str], ops: list[str]) -> str | None:
        t = _type(mods)
        vector = next((int(m[1:]) for m in mods if m in ("v2", "v4")), 0)
        address = self._address(ops[1])
        if not vector:
            return self._set(ops[0], t, f"::cass::ptx::load<{t}>({address})")
        targets = _vector(ops[0], vector)
        return " ".join(
            self._set(target, t, f"::cass::ptx::load<{t}>({address} + {i * _size(t)})") for i, target in enumerate(targets)
        )

    def _op_st(self, mods: list[str], ops: list[str]) -> str | None:
        t = _type(mods)
        vector = next((int(m[1:]) for m in mods if m in ("v2", "v4")), 0)
        address = self._address(ops[0])
        if not vector:
            return f"::cass::ptx::store<{t}>({address}, {self._value(ops[1], t)});"
        values = _vector(ops[1], vector)
        return " ".join(f"::cass::ptx::store<{t}>({address} + {i * _size(t)}, {self._value(v, t)});" for i, v in enumerate(values))

    def _op_membar(self, mods: list[str], ops: list[str]) -> str | None:
        return "::cass::ptx::fence();"

    def _op_fence(self, mods: list[str], ops: list[str]) -> str | None:
        return "::cass::ptx::fence();"

    def _op_bar(self, mods: list[str], ops: list[str]) -> str | None:
        # bar.sync 0 / barrier.sync 0 (what __syncthreads() compiles to); named barriers with a
        # thread count are not the runtime's one block barrier
        if mods not in (["sync"], []) or len(ops) != 1 or ops[0].strip() != "0":
            return None
        return "__syncthreads();"

    def _op_barrier(self, mods: list[str], ops: list[str]) -> str | None:
        return self._op_bar([m for m in mods if m != "aligned"], ops)

    def _op_vote(self, mods: list[str], ops: list[str]) -> str | None:
        if "sync" not in mods:
            return None
        mask = self._value(ops[2], "unsigned") if len(ops) > 2 else "0xffffffffu"
        predicate = self._value(ops[1], "bool")
        if "ballot" in mods:
            return self._set(ops[0], "std::uint32_t", f"static_cast<std::uint32_t>(__ballot_sync({mask}, {predicate}))")
        call = {"all": "__all_sync", "any": "__any_sync", "uni": "__uni_sync"}.get(next((m for m in mods if m in ("all", "any", "uni")), ""))
        if call is None:
            return None
        return self._set(ops[0], "bool", f"static_cast<bool>({call}({mask}, {predicate}))")

    def _op_shfl(self, mods: list[str], ops: list[str]) -> str | None:
        if "sync" not in mods:
            return None
        u = "std::uint32_t"
        mode = next((m for m in mods if m in ("idx", "up", "down", "bfly")), None)
        if mode is None or len(ops) != 5:
            return None
        if "|" in ops[0]:
            return None  # the predicate output (source lane in range) is not computed
        target = ops[0]
        a, b, c, mask = (self._value(x, u) for x in ops[1:5])
        call = {"idx": "__shfl_sync", "up": "__shfl_up_sync", "down": "__shfl_down_sync", "bfly": "__shfl_xor_sync"}[mode]
        return self._set(target, u, f"{call}({mask}, {a}, {b}, ::cass::ptx::shfl_width({c}))")


def _opcode(text: str) -> str:
    text = text.lstrip()
    if text.startswith("@"):
        text = text.split(None, 1)[1] if len(text.split(None, 1)) > 1 else text
    return text.split(None, 1)[0] if text else text


def _split_operands(text: str) -> list[str]:
    out, depth, current = [], 0, ""
    for ch in text:
        if ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(current.strip())
            current = ""
        else:
            current += ch
    if current.strip():
        out.append(current.strip())
    return out


def _vector(token: str, count: int) -> list[str]:
    inner = token.strip()
    if not (inner.startswith("{") and inner.endswith("}")):
        raise ValueError(token)
    items = _split_operands(inner[1:-1])
    if len(items) != count:
        raise ValueError(token)
    return items


def _type(mods: list[str]) -> str:
    for mod in reversed(mods):
        if mod in _TYPES:
            return _TYPES[mod]
    raise ValueError(".".join(mods))


def _wide(t: str) -> str:
    return {"std::uint16_t": "std::uint32_t", "std::int16_t": "std::int32_t", "std::uint32_t": "std::uint64_t",
            "std::int32_t": "std::int64_t"}[t]  # fmt: skip


def _size(t: str) -> int:
    m = re.search(r"(\d+)_t$", t)
    return int(m[1]) // 8 if m else {"float": 4, "double": 8, "bool": 1}[t]


def _plain_float(mods: list[str]) -> bool:
    """Float arithmetic in round-to-nearest without flushing denormals: the CPU's default."""
    return all(m in _TYPES or m == "rn" for m in mods)


def _bool(value: bool) -> str:
    return "true" if value else "false"
