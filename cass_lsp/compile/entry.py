"""Where a unit defines the program's ``main``, in any spelling real code uses.

A definition is ``main`` named after its return type (``int``, ``int32_t``, ``signed``, a macro,
``auto`` with ``-> int``; attributes and line breaks anywhere between), its parameters, then its
body (``{``, ``try``, or a trailing return type). It must not sit inside a class, struct, union or
namespace (a method or ``app::main`` is not the program's entry; ``extern "C" { ... }`` is no
scope). Calls (``return main(argc, argv)``, ``obj.main()``), declarations (``int main();``), and
whatever comments, string literals and preprocessor lines hold are not definitions.
"""

from __future__ import annotations

import re

# comments, string and character literals, preprocessor lines (with their continuations); the
# lookahead lets the scan skip most characters at once
_INERT = re.compile(
    r"(?=[/\"'R# \t])(?://[^\n]*|/\*.*?\*/|R\"(?P<delim>[^()\\\s\"]{0,16})\(.*?\)(?P=delim)\"|\"(?:\\.|[^\"\\\n])*\""
    r"|'(?<!\w')(?:\\.|[^'\\\n])+'|^[ \t]*#(?:\\\n|[^\n])*)",
    re.DOTALL | re.MULTILINE,
)
_WORD = re.compile(r"\bmain\b")
_TOKENS = re.compile(r"[{}]|\bmain\b")
_SCOPE = re.compile(r"\b(?:class|struct|union|namespace)\b")
# a brace whose head holds one of these opens a function, an initializer or a statement, not a scope
_NOT_SCOPE = re.compile(r"[()=;]")
_TRAILING_ATTRIBUTES = re.compile(
    r"(?:\[\[.*?\]\]|__attribute__\s*\(\(.*?\)\)|__declspec\s*\(.*?\)|alignas\s*\(.*?\))\s*$", re.DOTALL
)
_TYPE_END = re.compile(r"(?<![\w])(?:(?:\w+\s*::\s*)*\w+)\s*$")
_NOT_A_TYPE = frozenset({
    "return", "else", "case", "throw", "new", "delete", "sizeof", "alignof", "decltype", "goto",
    "co_return", "co_yield", "co_await", "typedef", "using", "operator", "do", "and", "or", "not",
})  # fmt: skip
_LOOKBEHIND = 400  # characters before `main` that may hold its return type and attributes
_BODY = re.compile(r"\s*(?:noexcept\b\s*)?(?:\{|->|try\b)")


def _blank_inert(text: str) -> str:
    """``text`` with comments, literals and preprocessor lines blanked (offsets and lines kept)."""
    return _INERT.sub(_blank, text)


def _blank(match: re.Match[str]) -> str:
    inert = match.group()
    return " " * len(inert) if "\n" not in inert else re.sub(r"[^\n]", " ", inert)


def main_offset(text: str) -> int | None:
    """The offset of the ``main`` a definition names in ``text``, or None when it defines none."""
    if _WORD.search(text) is None:
        return None  # most units: no word main at all
    code = _blank_inert(text)
    scopes: list[bool] = []  # per open brace: whether it opens a class, struct, union or namespace
    for token in _TOKENS.finditer(code):
        at = token.start()
        if token.group() == "{":
            head = code[max(code.rfind(c, 0, at) for c in ";{}") + 1 : at]
            scopes.append(_SCOPE.search(head) is not None and _NOT_SCOPE.search(head) is None)
        elif token.group() == "}":
            if scopes:
                scopes.pop()
        elif not any(scopes) and _is_definition(code, at, token.end()):
            return at
    return None


def _is_definition(code: str, start: int, end: int) -> bool:
    before = code[max(0, start - _LOOKBEHIND) : start].rstrip()
    while (attribute := _TRAILING_ATTRIBUTES.search(before)) is not None:
        before = before[: attribute.start()].rstrip()
    type_name = _TYPE_END.search(before)
    if type_name is None or type_name.group().split("::")[-1].strip() in _NOT_A_TYPE:
        return False
    after = code[end:].lstrip()
    if not after.startswith("("):
        return False
    close = _closing_paren(code, code.index("(", end))
    return close is not None and _BODY.match(code, close + 1) is not None


def _closing_paren(code: str, open_at: int) -> int | None:
    depth = 0
    for index in range(open_at, len(code)):
        char = code[index]
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                return index
        elif char in "{};":
            return None  # parameters hold none of these: not a parameter list
    return None
