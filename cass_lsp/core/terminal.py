"""Text from compilers, programs and files made safe to print on a terminal.

A repository controls what nvcc and clang say about it (an ``#error`` line is echoed back), what its
programs print and what its files hold; written raw, an escape sequence in it could rewrite the
screen, set the window title, hide a line or, on some terminals, answer back into the shell's
input. So every CLI verb passes such text through :func:`escape` before printing it: control
characters become visible ``\\x1b``-style text, newlines and tabs stay. Machine-readable output
(``--json``) and a translation written to standard output are data, left as they are (JSON escapes
C0 controls itself).
"""

from __future__ import annotations

_KEPT = {"\n", "\t"}
# C0 controls (ESC, CR, BEL, backspace, ...), DEL and the C1 controls (U+0080-U+009F, of which
# U+009B is a one-character CSI on terminals that honour C1), then the bidirectional overrides and
# isolates that reorder what the reader sees ("Trojan Source").
_CONTROLS = [*range(0x00, 0x20), *range(0x7F, 0xA0), 0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F),
             *range(0x2066, 0x206A)]
_TABLE = {c: (f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}") for c in _CONTROLS if chr(c) not in _KEPT}


def escape(text: str) -> str:
    """``text`` with every control character but newline and tab written as a visible escape."""
    return text.translate(_TABLE)
