"""Cancellation tokens: how a superseded or cancelled job learns to stop.

Subprocess work hands :attr:`CancelToken.event` to :func:`cass_lsp.core.proc.run`, which kills the
process group when it is set; pure-Python work calls :meth:`CancelToken.check` between passes.
"""

from __future__ import annotations

import threading


class Cancelled(Exception):
    """The job was cancelled (by its caller, a client's cancel button, or the server stopping)."""


class Superseded(Cancelled):
    """A newer input for the same document and kind replaced the job."""


class CancelToken:
    def __init__(self) -> None:
        self.event = threading.Event()
        self.reason: type[Cancelled] = Cancelled

    def cancel(self, reason: type[Cancelled] = Cancelled) -> None:
        if not self.event.is_set():
            self.reason = reason
            self.event.set()

    @property
    def cancelled(self) -> bool:
        return self.event.is_set()

    def check(self) -> None:
        """Raise :class:`Cancelled` (or :class:`Superseded`) once the token is cancelled."""
        if self.event.is_set():
            raise self.reason()
