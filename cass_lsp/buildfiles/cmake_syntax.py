"""CMake's command syntax, enough to rewrite arguments in place: commands, their arguments with
offsets, comments skipped (CMake language reference, "Syntax")."""

from __future__ import annotations

import re
from typing import NamedTuple

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_BRACKET_OPEN = re.compile(r"\[(=*)\[")


class Argument(NamedTuple):
    text: str  # as written (quoted ones without their quotes)
    start: int  # offsets of the text as written, quotes included
    end: int
    quoted: bool


class Command(NamedTuple):
    name: str  # lower case
    start: int  # the name's offset
    end: int  # after the closing parenthesis
    args: list[Argument]


def _skip_bracket(text: str, i: int) -> int:
    """After a bracket argument or comment opening at ``i`` (``[==[``)."""
    match = _BRACKET_OPEN.match(text, i)
    if match is None:
        return i + 1
    close = text.find("]" + match.group(1) + "]", match.end())
    return len(text) if close < 0 else close + len(match.group(1)) + 2


def _skip_comment(text: str, i: int) -> int:
    if _BRACKET_OPEN.match(text, i + 1):
        return _skip_bracket(text, i + 1)
    newline = text.find("\n", i)
    return len(text) if newline < 0 else newline


def _quoted_end(text: str, i: int) -> int:
    j = i + 1
    while j < len(text) and text[j] != '"':
        j += 2 if text[j] == "\\" else 1
    return min(j + 1, len(text))


def _unquoted_end(text: str, i: int) -> int:
    j = i
    depth = 0  # a generator expression's or variable reference's delimiters are not separators
    while j < len(text):
        c = text[j]
        if c == "\\":
            j += 2
            continue
        if c in "$" and j + 1 < len(text) and text[j + 1] in "<{":
            depth += 1
            j += 2
            continue
        if c in ">}" and depth:
            depth -= 1
        elif c.isspace() or (c in '()#"' and not depth):
            break
        j += 1
    return j


def commands(text: str) -> list[Command]:
    """Every command invocation of a CMake file, in order."""
    found: list[Command] = []
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c == "#":
            i = _skip_comment(text, i)
            continue
        match = _IDENTIFIER.match(text, i)
        if match is None or (i > 0 and (text[i - 1].isalnum() or text[i - 1] == "_")):
            i += 1
            continue
        j = match.end()
        while j < n and text[j] in " \t":
            j += 1
        if j >= n or text[j] != "(":
            i = match.end()
            continue
        args, end = _arguments(text, j + 1)
        found.append(Command(match.group().lower(), i, end, args))
        i = end
    return found


def _arguments(text: str, i: int) -> tuple[list[Argument], int]:
    args: list[Argument] = []
    depth = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c.isspace():
            i += 1
        elif c == "#":
            i = _skip_comment(text, i)
        elif c == "(":
            depth += 1
            args.append(Argument("(", i, i + 1, False))
            i += 1
        elif c == ")":
            if depth == 0:
                return args, i + 1
            depth -= 1
            args.append(Argument(")", i, i + 1, False))
            i += 1
        elif c == '"':
            end = _quoted_end(text, i)
            args.append(Argument(text[i + 1 : end - 1], i, end, True))
            i = end
        elif _BRACKET_OPEN.match(text, i):
            end = _skip_bracket(text, i)
            args.append(Argument(text[i:end], i, end, True))
            i = end
        else:
            end = max(_unquoted_end(text, i), i + 1)
            args.append(Argument(text[i:end], i, end, False))
            i = end
    return args, n
