"""Which line of the original a line of a translation file came from (for ``relatedInformation``).

A translation on disk carries no line map: it may be the rule translation, edited by hand, or a
model's. The original's own rule translation does carry one (:class:`~cass_lsp.compile.linemap.LineMap`),
and it resembles the file far more than the CUDA text does (same API names, same launch syntax), so
the file is aligned to it with difflib and then mapped through its line map.
"""

from __future__ import annotations

import bisect
import difflib

from cass_lsp.compile.scratch import HipTarget
from cass_lsp.translate.buffer import translated


class LineAlignment:
    def __init__(self, original_text: str, translation_text: str, target: HipTarget) -> None:
        rule_text, self._line_map, _ = translated(original_text, target)
        rule_lines = [line.strip() for line in rule_text.splitlines()]
        file_lines = [line.strip() for line in translation_text.splitlines()]
        matcher = difflib.SequenceMatcher(None, file_lines, rule_lines, autojunk=False)
        # (first file line, last file line + 1, first rule line, last rule line + 1) of each stretch
        # that is equal or replaced; inserted lines have no counterpart
        self._blocks = [(a0, a1, b0, b1) for tag, a0, a1, b0, b1 in matcher.get_opcodes() if tag in ("equal", "replace")]
        self._starts = [block[0] for block in self._blocks]

    def original_line(self, translation_line: int) -> int | None:
        """The original's 1-based line for the file's 1-based line; None for lines written anew.

        Lines the file changed (an edited call is where compile errors are) pair up with the rule
        translation's lines of the same stretch, in order."""
        index = bisect.bisect_right(self._starts, translation_line - 1) - 1
        if index < 0:
            return None
        start, end, rule_start, rule_end = self._blocks[index]
        offset = translation_line - 1 - start
        if translation_line - 1 >= end:
            return None
        return self._line_map.original(min(rule_start + offset, rule_end - 1) + 1)
