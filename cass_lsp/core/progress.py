"""Progress of running jobs, reported through a small interface the consumers implement.

The server turns it into LSP work-done progress (``$/progress``, cancellable from the client's UI);
the CLI into a one-line bar on stderr, only when stderr is a terminal. Reports may come from worker
threads: implementations must be thread-safe.
"""

from __future__ import annotations

import sys
import threading
from typing import Protocol, TextIO

from cass_lsp.core.cancel import CancelToken
from cass_lsp.core.terminal import escape


class Progress(Protocol):
    def report(self, message: str | None = None, percentage: int | None = None) -> None: ...

    def end(self, message: str | None = None) -> None: ...


class ProgressSink(Protocol):
    def begin(self, title: str, cancel: CancelToken | None) -> Progress:
        """Start showing a job; ``cancel`` is set when the user cancels it from the UI."""
        ...


class _Silent:
    def report(self, message: str | None = None, percentage: int | None = None) -> None:
        pass

    def end(self, message: str | None = None) -> None:
        pass


class SilentSink:
    def begin(self, title: str, cancel: CancelToken | None) -> Progress:
        return _Silent()


SILENT = SilentSink()


class _TerminalLine:
    def __init__(self, sink: TerminalSink, title: str) -> None:
        self._sink = sink
        self._title = title

    def report(self, message: str | None = None, percentage: int | None = None) -> None:
        bar = ""
        if percentage is not None:
            filled = max(0, min(20, percentage // 5))
            bar = f"[{'#' * filled}{'.' * (20 - filled)}] {percentage:3d}% "
        self._sink.show(f"{bar}{self._title}" + (f": {message}" if message else ""))

    def end(self, message: str | None = None) -> None:
        self._sink.clear()


class TerminalSink:
    """One status line on a terminal, rewritten in place; nothing at all when not a terminal."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self._stream = stream or sys.stderr
        self._enabled = self._stream.isatty()
        self._lock = threading.Lock()

    def begin(self, title: str, cancel: CancelToken | None) -> Progress:
        if not self._enabled:
            return _Silent()
        line = _TerminalLine(self, title)
        line.report()
        return line

    def show(self, text: str) -> None:
        with self._lock:
            self._stream.write(f"\r\x1b[K{escape(text)}"[:200])  # titles name the workspace's files
            self._stream.flush()

    def clear(self) -> None:
        with self._lock:
            self._stream.write("\r\x1b[K")
            self._stream.flush()
