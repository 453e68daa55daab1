"""Which kernel of a translation to suspect when its output changes with the order threads run in."""

from __future__ import annotations

import msgspec

from cass_lsp.syntax import parsing
from cass_lsp.syntax.document import extract_constructs
from cass_lsp.verify.stages import Inputs


class Kernel(msgspec.Struct, frozen=True):
    name: str
    file: str
    line: int  # 1-based, of its name


def race_suspects(inputs: Inputs) -> list[Kernel]:
    """The translation's kernels (a unit without a translation file: its original's, whose rule
    translation keeps the names and lines), in file order, each name once."""
    kernels: list[Kernel] = []
    for unit in inputs.program.units:
        path = unit.translation or unit.original
        text = inputs.texts.get(path)
        if text is None:
            continue
        source = text.encode("utf-8")
        for function in extract_constructs(parsing.parse(source)).functions:
            if function.space == "global" and all(k.name != function.name for k in kernels):
                line = source.count(b"\n", 0, function.name_span.start) + 1
                kernels.append(Kernel(function.name, path, line))
    return kernels
