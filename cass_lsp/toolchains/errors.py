"""The error every toolchain lookup raises when something outside Python is not installed."""

from __future__ import annotations


class ToolchainMissing(RuntimeError):
    """A compiler, header set or library folder is not there; ``hint`` says how to install it."""

    def __init__(self, what: str, hint: str) -> None:
        super().__init__(f"{what} not found; install with: {hint}")
        self.what = what
        self.hint = hint
