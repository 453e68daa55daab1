"""cass_lsp.core.terminal.escape: what the CLI prints of compilers', programs' and files' text."""

from __future__ import annotations

from cass_lsp.core.terminal import escape


def test_controls_become_visible_and_newlines_and_tabs_stay() -> None:
    hostile = "a\tb\n\x1b]0;title\x07\x1b[2J\rback\x08\x7f\x9b31m\x00"
    assert escape(hostile) == "a\tb\n\\x1b]0;title\\x07\\x1b[2J\\x0dback\\x08\\x7f\\x9b31m\\x00"


def test_bidirectional_overrides_are_shown_and_other_text_is_kept() -> None:
    assert escape("if (admin) {\u202e } \u2066x\u2069") == "if (admin) {\\u202e } \\u2066x\\u2069"
    assert escape("café → ü, 漢字, \\x1b as text") == "café → ü, 漢字, \\x1b as text"
