"""`cass-lsp serve --tcp` and `--socket`: only a client holding the server's token is served.

Real server, real sockets on loopback, a small raw JSON-RPC client. The attack from the issue: a
local user connects and sends `initializationOptions` with `asm.extraArgs.clang = ["-fplugin=..."]`
and a `didOpen`; before the token, clang loaded the plugin. Here every connection without the right
token is closed with no answer, and the plugin it names is never loaded, while a client with the
token gets its own plugin loaded (the control: the same path would have run the attacker's).
"""

from __future__ import annotations

import json
import os
import re
import socket
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.fuzz.wire import ROOT, encode, frame
from tests.lsp import plugin
from tests.toolchain import surface_attacks

SERVER = [sys.executable, "-m", "cass_lsp", "--log-level", "info", "serve"]
COMPILE_TIMEOUT_S = 240.0


class Served:
    """A `cass-lsp serve` process listening on a socket, with what it printed."""

    def __init__(self, tmp: Path, mode: list[str]) -> None:
        self.runtime = tmp / "run"
        self.stderr_path = tmp / "server-stderr.log"
        env = {
            **os.environ,
            "CASS_LSP_RUNTIME_DIR": str(self.runtime),
            "CASS_LSP_CONFIG_DIR": str(tmp / "config"),
        }
        with open(self.stderr_path, "wb") as stderr:
            self.proc = subprocess.Popen(
                [*SERVER, *mode], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=stderr, env=env, cwd=ROOT
            )
        try:
            listening = self.wait_for(r"listening on (\S+)")
            self.token_file = Path(self.wait_for(r"token in (\S+)"))
        except AssertionError:
            self.proc.kill()
            self.proc.wait()
            raise
        self.token = self.token_file.read_text().strip()
        self.address: Any = listening.removeprefix("unix:") if listening.startswith("unix:") else None
        if self.address is None:
            host, port = listening.rsplit(":", 1)
            self.address = (host, int(port))

    def wait_for(self, pattern: str, timeout: float = 60.0) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if match := re.search(pattern, self.stderr()):
                return match.group(1)
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        raise AssertionError(f"no {pattern!r} from the server:\n{self.stderr()}")

    def stderr(self) -> str:
        return self.stderr_path.read_text(errors="replace")

    def connect(self) -> Connection:
        family = socket.AF_UNIX if isinstance(self.address, str) else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.settimeout(30)
        sock.connect(self.address)
        return Connection(sock)

    def stop(self) -> int:
        try:
            return self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            return -9


class Connection:
    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.buffer = b""

    def send(self, *messages: Any) -> None:
        self.sock.sendall(b"".join(frame(encode(m)) for m in messages))

    def receive(self) -> Any:
        """The next message from the server; None when it closed the connection."""
        while True:
            head, sep, rest = self.buffer.partition(b"\r\n\r\n")
            if sep:
                length = int(re.search(rb"Content-Length: (\d+)", head, re.IGNORECASE).group(1))  # type: ignore[union-attr]
                if len(rest) >= length:
                    self.buffer = rest[length:]
                    return json.loads(rest[:length])
            try:
                chunk = self.sock.recv(65536)
            except ConnectionResetError:
                chunk = b""
            if not chunk:
                return None
            self.buffer += chunk

    def reply_to(self, request_id: int) -> Any:
        while (message := self.receive()) is not None:
            if message.get("id") == request_id and "method" not in message:
                return message
        raise AssertionError(f"the connection closed before the answer to request {request_id}")

    def close(self) -> None:
        self.sock.close()


def initialize(options: Any, request_id: int = 1) -> dict[str, Any]:
    params = {"processId": None, "rootUri": None, "capabilities": {}, "initializationOptions": options}
    return {"jsonrpc": "2.0", "id": request_id, "method": "initialize", "params": params}


def did_open(uri: str) -> dict[str, Any]:
    document = {"uri": uri, "languageId": "cuda", "version": 1, "text": plugin.OPENED}
    return {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": document}}


INITIALIZED = {"jsonrpc": "2.0", "method": "initialized", "params": {}}


def session_end(connection: Connection) -> None:
    connection.send({"jsonrpc": "2.0", "id": 99, "method": "shutdown"})
    assert "result" in connection.reply_to(99)
    connection.send({"jsonrpc": "2.0", "method": "exit"})


def mode_of(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def plugins(tmp_path: Path) -> Iterator[tuple[tuple[Path, Path], tuple[Path, Path]]]:
    yield plugin.build(tmp_path / "attacker", "evil"), plugin.build(tmp_path / "user", "own")


def test_tcp_serves_only_a_client_with_the_token(tmp_path: Path, plugins: Any) -> None:
    (evil, evil_marker), (own, own_marker) = plugins
    server = Served(tmp_path, ["--tcp", "--port", "0"])
    try:
        assert server.address[0] == "127.0.0.1"
        assert mode_of(server.token_file) == 0o600 and mode_of(server.runtime) == 0o700
        attack = {"cass": plugin.settings(evil), "workspaceTrusted": True}
        uri = (tmp_path / "attack.cu").as_uri()
        first_messages = {
            "no token": initialize(attack),
            "a wrong token": initialize({**attack, "token": server.token[:-1] + "x"}),
            "the token elsewhere": {**initialize(attack), "token": server.token},
            "didOpen first": did_open(uri),
        }
        for what, first in first_messages.items():
            connection = server.connect()
            connection.send(first, INITIALIZED, did_open(uri))
            assert connection.receive() is None, f"{what}: the server answered"
            connection.close()
        assert server.proc.poll() is None, server.stderr()
        assert server.stderr().count("refused a connection") == len(first_messages), server.stderr()

        client = server.connect()
        client.send(initialize({"cass": plugin.settings(own), "workspaceTrusted": True, "token": server.token}))
        reply = client.reply_to(1)
        assert reply["result"]["serverInfo"]["name"] == "cass-lsp", reply
        intruder = server.connect()  # one client is served, as over stdio, even with the token
        intruder.send(initialize({"token": server.token}, request_id=7))
        assert intruder.receive() is None
        intruder.close()
        client.send(INITIALIZED, did_open((tmp_path / "own.cu").as_uri()))
        deadline = time.monotonic() + COMPILE_TIMEOUT_S
        while not own_marker.exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert own_marker.exists(), f"the authenticated client's listing was never compiled:\n{server.stderr()}"
        assert not evil_marker.exists(), "a connection without the token had its plugin loaded"
        assert server.token not in server.stderr(), "the token reached the log"
        session_end(client)
        assert server.stop() == 0, server.stderr()
        assert not server.token_file.exists(), "the token file outlived the server"
    finally:
        if server.proc.poll() is None:
            server.proc.kill()
            server.proc.wait()


def test_a_unix_socket_is_private_and_needs_the_token(tmp_path: Path) -> None:
    server = Served(tmp_path, ["--socket"])
    try:
        socket_path = Path(server.address)
        assert socket_path.parent == server.runtime and stat.S_ISSOCK(socket_path.stat().st_mode)
        assert mode_of(socket_path) == 0o600 and mode_of(server.token_file) == 0o600
        stranger = server.connect()
        stranger.send(initialize({"workspaceTrusted": True}))
        assert stranger.receive() is None
        stranger.close()
        client = server.connect()
        client.send(initialize({"token": server.token}))
        assert client.reply_to(1)["result"]["serverInfo"]["name"] == "cass-lsp"
        client.send(INITIALIZED)
        session_end(client)
        assert server.stop() == 0, server.stderr()
        assert not socket_path.exists() and not server.token_file.exists()
    finally:
        if server.proc.poll() is None:
            server.proc.kill()
            server.proc.wait()


def test_a_host_that_is_not_loopback_needs_allow_remote(tmp_path: Path) -> None:
    # TEST-NET-1: no interface has it, so even a server that failed this check could not listen
    result = subprocess.run(
        [*SERVER, "--tcp", "--host", "192.0.2.1", "--port", "0"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env={**os.environ, "CASS_LSP_RUNTIME_DIR": str(tmp_path / "run")},
    )
    assert result.returncode == 2, result
    assert "not a loopback address" in result.stderr and "--allow-remote" in result.stderr
    assert "listening" not in result.stderr


def refusals(server: Served) -> int:
    return server.stderr().count("refused a connection")


def wait_for_refusals(server: Served, count: int, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while refusals(server) < count and time.monotonic() < deadline:
        time.sleep(0.05)
    assert refusals(server) >= count, server.stderr()


def test_an_oversized_first_message_is_refused_before_its_body(tmp_path: Path) -> None:
    from cass_lsp.server.transport import AUTH_TIMEOUT_S

    server = Served(tmp_path, ["--tcp", "--port", "0"])
    try:
        stranger = server.connect()
        # Only the header: a server that waited for the 1 MB body would hold the connection until
        # its handshake timeout.
        stranger.sock.sendall(b"Content-Length: 1000000\r\n\r\n")
        started = time.monotonic()
        assert stranger.receive() is None
        assert time.monotonic() - started < AUTH_TIMEOUT_S / 2, "the server waited for the body"
        stranger.close()
        assert "larger one than an initialize needs" in server.stderr(), server.stderr()
    finally:
        server.proc.kill()
        server.proc.wait()


def test_connections_waiting_to_authenticate_are_capped(tmp_path: Path) -> None:
    from cass_lsp.server.transport import AUTH_TIMEOUT_S, MAX_UNAUTHENTICATED

    server = Served(tmp_path, ["--tcp", "--port", "0"])
    try:
        waiting = [server.connect() for _ in range(MAX_UNAUTHENTICATED)]
        time.sleep(0.5)  # the server has taken each of them in
        extra = server.connect()
        started = time.monotonic()
        assert extra.receive() is None
        assert time.monotonic() - started < AUTH_TIMEOUT_S / 2, "the connection past the cap was kept waiting"
        wait_for_refusals(server, 1)
        assert "already waiting to authenticate" in server.stderr(), server.stderr()
        extra.close()
        for connection in waiting:
            connection.close()
        wait_for_refusals(server, 1 + MAX_UNAUTHENTICATED)  # the closed ones free their places
        client = server.connect()
        client.send(initialize({"token": server.token}))
        assert client.reply_to(1)["result"]["serverInfo"]["name"] == "cass-lsp"
        client.send(INITIALIZED)
        session_end(client)
        assert server.stop() == 0, server.stderr()
    finally:
        if server.proc.poll() is None:
            server.proc.kill()
            server.proc.wait()


def test_strangers_sending_a_megabyte_each_leave_the_memory_as_it_was(tmp_path: Path) -> None:
    server = Served(tmp_path, ["--tcp", "--port", "0"])
    try:
        surface_attacks.send_hostile(server.address)  # whatever the first connection loads is not their cost
        wait_for_refusals(server, 1)
        before = surface_attacks.rss_mb(server.proc.pid)
        surface_attacks.hostile_connections(server.address)
        wait_for_refusals(server, 1 + surface_attacks.HOSTILE_CONNECTIONS)
        after, peak = surface_attacks.rss_mb(server.proc.pid), surface_attacks.rss_mb(server.proc.pid, "VmHWM")
        assert max(after, peak) - before < surface_attacks.RSS_SLACK_MB, f"RSS {before:.0f} -> {after:.0f} MB, peak {peak:.0f}"
        client = server.connect()
        client.send(initialize({"token": server.token}))
        assert client.reply_to(1)["result"]["serverInfo"]["name"] == "cass-lsp"
        client.send(INITIALIZED)
        session_end(client)
        assert server.stop() == 0, server.stderr()
    finally:
        if server.proc.poll() is None:
            server.proc.kill()
            server.proc.wait()
