"""Reading LSP messages from stdin: whatever has arrived, in one worker-thread call; and the log of
the message loop.

pygls's ``StdinAsyncReader`` hands each header line and each body to a worker thread and back: three
thread round trips per message, each of which waits for the GIL when translations or listing parsers
hold it. Fifty didChange notifications in a burst (one keystroke in each of fifty open documents)
were 150 hand-offs before the hover queued behind them could run. This reader takes up to 64 kB per
round trip and serves lines and bodies from that buffer; a burst is one or two round trips.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
from concurrent.futures import ThreadPoolExecutor

from pygls.exceptions import JsonRpcException

CHUNK_BYTES = 1 << 16


class ChunkedReader:
    """pygls's async reader interface (``readline``, ``readexactly``) over a file descriptor.

    At the end of the input both return what is left (``b""`` when nothing is), as pygls's reader
    does; its message loop stops on an empty read."""

    def __init__(self, fd: int, executor: ThreadPoolExecutor | None = None) -> None:
        self._fd = fd
        self._executor = executor
        self._buffer = bytearray()
        self._ended = False

    async def readline(self) -> bytes:
        while (newline := self._buffer.find(b"\n")) < 0:
            if not await self._fill():
                return self._take(len(self._buffer))
        return self._take(newline + 1)

    async def readexactly(self, n: int) -> bytes:
        while len(self._buffer) < n:
            if not await self._fill():
                return self._take(len(self._buffer))
        return self._take(n)

    async def _fill(self) -> bool:
        if self._ended:
            return False
        chunk = await asyncio.get_running_loop().run_in_executor(self._executor, os.read, self._fd, CHUNK_BYTES)
        if not chunk:
            self._ended = True
            return False
        self._buffer += chunk
        return True

    def _take(self, n: int) -> bytes:
        taken = bytes(self._buffer[:n])
        del self._buffer[:n]  # bytearray drops a prefix without moving the rest
        return taken


class _ClientFaults(logging.Filter):
    """One line, not a traceback, for what the client got wrong: a body that is not JSON, params that
    do not fit their type, a request the server refuses on purpose (an error reply). pygls logs a
    traceback of ~40 lines for each; a client repeating a broken message filled the log. Every
    other exception (the server's own fault) keeps its traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = str(record.msg)
        if message.startswith("Unable to deserialize message"):
            return False  # answered (a request) or reported (a notification) by CassProtocol
        error = record.exc_info[1] if record.exc_info else None
        if not isinstance(error, JsonRpcException | json.JSONDecodeError):
            return True
        if message.startswith("Unable to handle message"):
            return False  # CassServer.report_server_error logs it, in a line
        record.msg, record.args = f"{record.getMessage()}: {error}", ()
        record.exc_info, record.exc_text = None, None
        return True


def message_loop_logger() -> logging.Logger:
    """The logger for pygls's message loop (``run_async``); also puts :class:`_ClientFaults` on
    pygls's JSON-RPC logger (once)."""
    logger = logging.getLogger("cass_lsp.server.wire")
    if not logger.filters:
        client_faults = _ClientFaults()
        logger.addFilter(client_faults)
        logging.getLogger("pygls.protocol.json_rpc").addFilter(client_faults)
    return logger
