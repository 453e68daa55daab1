"""The language server over a socket (TCP or a Unix socket), for a client holding its secret.

On a shared GPU or HPC host, loopback is not private: any local user can connect to a TCP port,
and a client that connects can make the server load code (a compiler flag in the settings). So a
socket server generates a secret when it starts, writes it to a file only the user can read (0600,
in the user's runtime folder; its path is printed on stderr), and the first message of a connection
must be an ``initialize`` request carrying it as ``initializationOptions.token``. A connection that
sends anything else, or nothing within :data:`AUTH_TIMEOUT_S`, is closed before any handler sees a
byte of it, and the server keeps listening. Before the token nothing a stranger sends may cost the
server memory: the first message is refused unread past :data:`MAX_FIRST_MESSAGE`, and at most
:data:`MAX_UNAUTHENTICATED` connections wait for their first message at once (others are closed
on arrival). The token is removed from the message before pygls
reads it. One client is served, as over stdio; the server ends when that client's connection does.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import ipaddress
import json
import logging
import os
import re
import secrets
import socket
import stat
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from pygls.io_ import run_async

from cass_lsp.core import dirs
from cass_lsp.core.dirs import RUNTIME_ENV
from cass_lsp.server.stdio import message_loop_logger

if TYPE_CHECKING:
    from cass_lsp.server.app import CassServer

log = logging.getLogger(__name__)

TOKEN_KEY = "token"
AUTH_TIMEOUT_S = 10.0
"""How long a new connection has to send its initialize request."""
MAX_FIRST_MESSAGE = 64 << 10
"""An initialize request is a few kB; a larger first message is refused unread (its Content-Length
is checked before a byte of its body is read)."""
MAX_UNAUTHENTICATED = 8
"""Connections allowed to wait for their first message at once: with the size cap and the timeout,
what strangers can make the server hold before the token is about 1 MB in all, not 1 MB per
connection (a long-lived process keeps the heap it grew)."""
MAX_HEADER_LINES = 8
_CONTENT_LENGTH = re.compile(rb"content-length:\s*(\d+)\s*", re.IGNORECASE)


class TransportError(Exception):
    """The socket cannot be served as asked; says why (the command line exits with it)."""


class Refused(Exception):
    """A connection's first message does not authenticate it; says why (logged, never sent)."""


def runtime_dir() -> Path:
    """``$CASS_LSP_RUNTIME_DIR`` if set, else the user's runtime folder (``$XDG_RUNTIME_DIR/cass-lsp``),
    created 0700; refused when it exists but another user owns it or others may write in it."""
    folder = dirs.runtime_root()
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = folder.stat()
    except OSError as error:
        raise TransportError(f"cannot create the runtime folder {folder}: {error} (set {RUNTIME_ENV})") from None
    if info.st_uid != os.getuid() or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        raise TransportError(f"{folder} must belong to you and be writable by you alone (set {RUNTIME_ENV})")
    return folder


def is_loopback(host: str) -> bool:
    """Whether every address ``host`` resolves to is a loopback address."""
    try:
        infos = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
    except OSError:
        return False
    return bool(infos) and all(ipaddress.ip_address(str(info[4][0]).split("%")[0]).is_loopback for info in infos)


def write_secret(path: Path, token: str) -> None:
    """Write the token readable by the user alone, atomically (a reader never sees half of it)."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}")
    with contextlib.suppress(FileNotFoundError):
        temporary.unlink()
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as handle:
        handle.write(token + "\n")
    os.replace(temporary, path)


def authenticate(body: bytes, token: str) -> bytes:
    """The first message's body with the token taken out, or Refused when it does not carry it."""
    try:
        message = json.loads(body)
    except ValueError:
        raise Refused("the first message is not JSON") from None
    params = message.get("params") if isinstance(message, dict) else None
    if not isinstance(message, dict) or message.get("method") != "initialize" or not isinstance(params, dict):
        raise Refused("the first message is not an initialize request")
    options = params.get("initializationOptions")
    sent = options.pop(TOKEN_KEY, None) if isinstance(options, dict) else None
    if not isinstance(sent, str):
        raise Refused(f"initializationOptions.{TOKEN_KEY} is missing")
    if not hmac.compare_digest(sent.encode(), token.encode()):
        raise Refused(f"initializationOptions.{TOKEN_KEY} is wrong")
    return json.dumps(message).encode()


async def read_frame(reader: asyncio.StreamReader) -> bytes:
    """One framed message's body (headers, a blank line, Content-Length bytes), size-bounded."""
    length = None
    for _ in range(MAX_HEADER_LINES + 1):
        line = await reader.readline()
        if not line:
            raise Refused("the connection closed before its first message")
        if line in (b"\r\n", b"\n"):
            break
        if match := _CONTENT_LENGTH.fullmatch(line):
            length = int(match.group(1))
    else:
        raise Refused("too many header lines")
    if length is None or length > MAX_FIRST_MESSAGE:
        raise Refused("the first message has no Content-Length, or a larger one than an initialize needs")
    try:
        return await reader.readexactly(length)
    except asyncio.IncompleteReadError:
        raise Refused("the connection closed inside its first message") from None


class _Replay:
    """pygls's async reader interface: the authenticated first message, then the connection."""

    def __init__(self, first: bytes, stream: asyncio.StreamReader) -> None:
        self._first = first
        self._stream = stream

    async def readline(self) -> bytes:
        if self._first:
            end = self._first.index(b"\n") + 1
            line, self._first = self._first[:end], self._first[end:]
            return line
        return await self._stream.readline()

    async def readexactly(self, n: int) -> bytes:
        if self._first:  # the body of the first message, whole
            body, self._first = self._first[:n], self._first[n:]
            return body
        try:
            return await self._stream.readexactly(n)
        except asyncio.IncompleteReadError as error:  # pygls's loop stops on a short read
            return error.partial


class SocketServer:
    """One listening socket with its secret; :meth:`remove_files` removes what it wrote."""

    def __init__(self, *, tcp: tuple[str, int] | None = None, unix: Path | None = None) -> None:
        self.tcp, self.unix = tcp, unix
        self.server: CassServer  # set by serve()
        self.token = secrets.token_urlsafe(32)
        self.token_file: Path | None = None
        self._files: list[Path] = []
        self._session = False
        self._unauthenticated = 0  # connections waiting for their first message (the event loop's thread only)
        self._listener: asyncio.Server | None = None
        self._stop = threading.Event()

    def remove_files(self) -> None:
        for file in self._files:
            with contextlib.suppress(OSError):
                file.unlink()
        self._files.clear()

    def serve(self, server: CassServer, announce: Callable[[str], None]) -> None:
        """Serve ``server`` until its client's connection ends; ``announce`` gets the lines to print."""
        self.server = server
        try:
            asyncio.run(self._serve(announce))
        except (asyncio.CancelledError, KeyboardInterrupt, SystemExit):
            pass
        finally:
            self.remove_files()
            self.server.shutdown()

    async def _serve(self, announce: Callable[[str], None]) -> None:
        self.server._stop_event = self._stop  # pygls's shutdown sets it: the message loop stops
        self._listener = await self._listen(announce)
        async with self._listener:
            await self._listener.serve_forever()

    async def _listen(self, announce: Callable[[str], None]) -> asyncio.Server:
        if self.unix is not None:
            _remove_stale_socket(self.unix)
            self._write_token(self.unix.with_name(self.unix.name + ".token"))
            old_umask = os.umask(0o177)  # the socket is created 0600: no window where others may connect
            try:
                listener = await asyncio.start_unix_server(self._connected, path=str(self.unix))
            except OSError as error:
                raise TransportError(f"cannot listen on {self.unix}: {error}") from None
            finally:
                os.umask(old_umask)
            os.chmod(self.unix, 0o600)
            self._files.append(self.unix)
            where = f"unix:{self.unix}"
        else:
            assert self.tcp is not None
            host, port = self.tcp
            folder = runtime_dir()
            if port:  # the token is there before the port opens: a client that connects at once finds it
                self._write_token(folder / f"tcp-{port}.token")
            try:
                listener = await asyncio.start_server(self._connected, host, port)
            except OSError as error:
                raise TransportError(f"cannot listen on {host}:{port}: {error}") from None
            if not port:
                port = listener.sockets[0].getsockname()[1]
                self._write_token(folder / f"tcp-{port}.token")
            where = f"{host}:{port}"
        log.info("listening on %s", where)
        announce(f"cass-lsp: listening on {where}")
        announce(f"cass-lsp: token in {self.token_file} (send it as initializationOptions.{TOKEN_KEY})")
        return listener

    def _write_token(self, path: Path) -> None:
        write_secret(path, self.token)
        self.token_file = path
        self._files.append(path)

    async def _connected(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        peer = writer.get_extra_info("peername") or "a local socket"
        try:
            if self._session:
                raise Refused("a client is already being served")
            if self._unauthenticated >= MAX_UNAUTHENTICATED:
                raise Refused(f"{MAX_UNAUTHENTICATED} connections are already waiting to authenticate")
            self._unauthenticated += 1
            try:
                first = await asyncio.wait_for(read_frame(reader), AUTH_TIMEOUT_S)
            finally:
                self._unauthenticated -= 1
            body = authenticate(first, self.token)
        except (Refused, TimeoutError, ConnectionError, ValueError) as error:  # ValueError: a header past 64 kB
            reason = "no initialize request in time" if isinstance(error, TimeoutError) else str(error)
            log.warning("refused a connection from %s: %s", peer, reason)
            writer.close()
            return
        self._session = True
        log.info("client at %s authenticated", peer)
        self.server.protocol.set_writer(writer)
        replay = _Replay(b"Content-Length: %d\r\n\r\n" % len(body) + body, reader)
        try:
            await run_async(
                stop_event=self._stop,
                reader=replay,
                protocol=self.server.protocol,
                logger=message_loop_logger(),
                error_handler=self.server.report_server_error,
            )
        finally:
            if self._listener is not None:  # the client went away: so does the server, as over stdio
                self._listener.close()


def _remove_stale_socket(path: Path) -> None:
    """A socket left by a server that died is removed; one a server listens on is refused."""
    if not path.exists() and not path.is_symlink():
        return
    if not stat.S_ISSOCK(path.lstat().st_mode):
        raise TransportError(f"{path} exists and is not a socket")
    probe = socket.socket(socket.AF_UNIX)
    try:
        probe.connect(str(path))
    except OSError:
        path.unlink()
        return
    finally:
        probe.close()
    raise TransportError(f"a server already listens on {path}")
