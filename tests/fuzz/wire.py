"""A raw JSON-RPC client for the real server over stdio, for fuzzing and fault injection.

pytest-lsp's client only sends well-formed, typed messages; the fuzzer must also send bodies that
are not JSON, objects with wrong types, ids of odd types and unframed bytes, and must count what
comes back. So this client writes bytes itself and reads the server's stdout on a thread.

Every server it starts carries a marker in its environment (``CASS_FUZZ_MARKER``), which every
child inherits unless it scrubs its environment; every child's command line names the server's own
TMPDIR (compilers' scratch folders live there) when it does. :meth:`WireServer.leftovers` finds
processes by either after the server has exited: processes left behind.
"""

from __future__ import annotations

import collections
import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, BinaryIO

ROOT = Path(__file__).resolve().parents[2]
SERVER = [sys.executable, "-m", "cass_lsp", "--log-level", "warning", "--stdio"]
MARKER_ENV = "CASS_FUZZ_MARKER"
INTERNAL_ERROR = -32603
INVALID_PARAMS = -32602
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
OUTBOX_LIMIT = 64

Json = Any
ClientHandler = Callable[[str, Json], Json]


def frame(body: bytes) -> bytes:
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def encode(message: Json) -> bytes:
    # ensure_ascii keeps lone surrogates (which document text may hold) encodable
    return json.dumps(message, ensure_ascii=True).encode()


class WireServer:
    """One server process, its stdin written by the caller, its stdout read on a thread."""

    def __init__(
        self,
        work: Path,
        env: Mapping[str, str] | None = None,
        settings: Json = None,
        command: list[str] | None = None,
        answer: ClientHandler | None = None,
    ) -> None:
        self.work = work
        self.tmp = work / "tmp"
        self.tmp.mkdir(parents=True, exist_ok=True)
        self.marker = uuid.uuid4().hex
        self.stderr_path = work / "server-stderr.log"
        full_env = {**os.environ, MARKER_ENV: self.marker, "TMPDIR": str(self.tmp)}
        full_env.setdefault("CASS_LSP_CACHE_DIR", str(default_cache_dir()))
        full_env.update(env or {})
        self.settings = settings
        self._answer = answer
        self._stderr = open(self.stderr_path, "wb")  # noqa: SIM115 - closed in close()
        self.proc = subprocess.Popen(
            command or SERVER,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            env=full_env,
            cwd=ROOT,
            # its own session: a signal meant for the test run (Ctrl-C) does not reach it first
            start_new_session=True,
        )
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self._stdin: BinaryIO = self.proc.stdin
        # Writes go through a thread of their own, answers to the server's requests first: a
        # reader that wrote those answers itself would block on a full stdin pipe while the server
        # blocks on its full stdout pipe, a deadlock no editor has (editors read and write apart).
        self._outbox: collections.deque[bytes] = collections.deque()
        self._replies: collections.deque[bytes] = collections.deque()
        self._out_cond = threading.Condition()
        self._writing = False
        self._closing = False
        self._cond = threading.Condition()
        self.responses: dict[Json, Json] = {}
        self.notifications: list[Json] = []
        self.server_requests: list[Json] = []
        self.sent = 0
        self.bytes_sent = 0
        self.broken_pipe = False
        self._next_id = 0
        self._reader = threading.Thread(target=self._read, args=(self.proc.stdout,), daemon=True)
        self._reader.start()
        self._writer = threading.Thread(target=self._write, daemon=True)
        self._writer.start()

    # ------------------------------------------------------------------ writing
    def send_bytes(self, data: bytes, *, reply: bool = False) -> None:
        """Queue bytes for the server (blocks while OUTBOX_LIMIT messages wait: backpressure)."""
        with self._out_cond:
            if reply:
                self._replies.append(data)
            else:
                while len(self._outbox) >= OUTBOX_LIMIT and not self.broken_pipe:
                    self._out_cond.wait(0.5)
                self._outbox.append(data)
                self.sent += 1
                self.bytes_sent += len(data)
            self._out_cond.notify_all()

    def flush(self, timeout: float = 60.0) -> bool:
        """Wait until everything queued is written; False when it was not in time."""
        deadline = time.monotonic() + timeout
        with self._out_cond:
            while (self._outbox or self._replies or self._writing) and not self.broken_pipe:
                if time.monotonic() > deadline:
                    return False
                self._out_cond.wait(0.2)
        return True

    def _write(self) -> None:
        while True:
            with self._out_cond:
                while not (self._replies or self._outbox or self._closing):
                    self._out_cond.wait()
                if self._replies:
                    data = self._replies.popleft()
                elif self._outbox:
                    data = self._outbox.popleft()
                else:
                    return
                self._writing = True
                self._out_cond.notify_all()
            try:
                self._stdin.write(data)
                self._stdin.flush()
            except (BrokenPipeError, ValueError, OSError):
                self.broken_pipe = True
            with self._out_cond:
                self._writing = False
                self._out_cond.notify_all()
                if self.broken_pipe:
                    return

    def send(self, message: Json) -> None:
        self.send_bytes(frame(encode(message)))

    def new_id(self) -> int:
        self._next_id += 1
        return self._next_id

    def request(self, method: str, params: Json = None, *, msg_id: Json = None) -> Json:
        msg_id = self.new_id() if msg_id is None else msg_id
        message: dict[str, Json] = {"jsonrpc": "2.0", "id": msg_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        return msg_id

    def notify(self, method: str, params: Json = None) -> None:
        message: dict[str, Json] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)

    # ------------------------------------------------------------------ reading
    def _read(self, stdout: BinaryIO) -> None:
        while True:
            length = None
            while True:
                line = stdout.readline()
                if not line:
                    with self._cond:
                        self._cond.notify_all()
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode("ascii", "replace").partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value.strip())
            if length is None:
                continue
            body = stdout.read(length)
            try:
                message = json.loads(body)
            except ValueError:
                message = {"unparsable": body[:200].decode("utf-8", "replace")}
            self._take(message)

    def _take(self, message: Json) -> None:
        if isinstance(message, dict) and "method" in message and "id" in message:
            # a request of the server's own (configuration, progress tokens, applyEdit): answer it as
            # an editor would, or the server waits on it
            self.server_requests.append(message)
            result = self._answer_server(message["method"], message.get("params"))
            self.send_bytes(frame(encode({"jsonrpc": "2.0", "id": message["id"], "result": result})), reply=True)
            return
        with self._cond:
            if isinstance(message, dict) and "id" in message and "method" not in message:
                self.responses[message["id"]] = message
            else:
                self.notifications.append(message)
            self._cond.notify_all()

    def _answer_server(self, method: str, params: Json) -> Json:
        if self._answer is not None:
            return self._answer(method, params)
        if method == "workspace/configuration":
            items = params.get("items", []) if isinstance(params, dict) else []
            return [self.settings for _ in items]
        if method == "workspace/applyEdit":
            return {"applied": True}
        return None

    def wait_for(self, ids: Iterable[Json], timeout: float) -> list[Json]:
        """Wait until every id is answered or `timeout` passes; the ids still unanswered."""
        wanted = list(ids)
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                missing = [i for i in wanted if i not in self.responses]
                left = deadline - time.monotonic()
                if not missing or left <= 0 or self.proc.poll() is not None:
                    return missing
                self._cond.wait(min(left, 0.5))

    def call(self, method: str, params: Json = None, timeout: float = 60.0) -> Json:
        """Send a request and wait for its response message (result or error)."""
        msg_id = self.request(method, params)
        if self.wait_for([msg_id], timeout):
            raise TimeoutError(f"{method} unanswered after {timeout} s (server alive: {self.alive})")
        return self.responses[msg_id]

    def notifications_of(self, method: str) -> list[Json]:
        with self._cond:
            return [n for n in self.notifications if isinstance(n, dict) and n.get("method") == method]

    def wait_notification(self, method: str, predicate: Callable[[Json], bool], timeout: float) -> Json | None:
        deadline = time.monotonic() + timeout
        with self._cond:
            while time.monotonic() < deadline:
                for note in self.notifications:
                    if isinstance(note, dict) and note.get("method") == method and predicate(note.get("params")):
                        return note
                self._cond.wait(0.2)
        return None

    # ------------------------------------------------------------------ lifecycle
    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    def initialize(self, options: Json = None, root: Path | None = None, capabilities: Json = None) -> Json:
        params = {
            "processId": os.getpid(),
            "rootUri": root.as_uri() if root else None,
            "workspaceFolders": [{"uri": root.as_uri(), "name": root.name}] if root else None,
            "capabilities": capabilities if capabilities is not None else EDITOR_CAPABILITIES,
            "initializationOptions": options,
        }
        reply = self.call("initialize", params, timeout=60)
        self.notify("initialized", {})
        return reply

    def close(self, timeout: float = 30.0) -> int:
        """shutdown, exit, wait; SIGKILL the server if it does not go. Returns its exit code."""
        if self.alive:
            with contextlib.suppress(TimeoutError):
                self.call("shutdown", None, timeout=timeout)
            self.notify("exit")
        try:
            code = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            code = self.proc.wait()
            code = code if code != 0 else -9
        self._finish()
        return code

    def kill(self, sig: signal.Signals = signal.SIGKILL) -> int:
        with contextlib.suppress(ProcessLookupError):
            self.proc.send_signal(sig)
        code = self.proc.wait(30)
        self._finish()
        return code

    def close_stdin(self) -> None:
        """The client goes away: stop writing and close the server's stdin."""
        with self._out_cond:
            self._closing = True
            self._outbox.clear()
            self._replies.clear()
            self._out_cond.notify_all()
        self._writer.join(10)
        with contextlib.suppress(OSError):
            self._stdin.close()

    def _finish(self) -> None:
        self.close_stdin()
        self._reader.join(5)
        self._stderr.close()

    def stderr(self) -> str:
        return self.stderr_path.read_text(errors="replace")

    def leftovers(self, wait_s: float = 5.0) -> list[str]:
        """Processes still running that this server started (its marker or its TMPDIR), as
        "pid cmdline"; waits up to `wait_s` for ones that are on their way out."""
        deadline = time.monotonic() + wait_s
        while True:
            found = processes_marked(self.marker, str(self.tmp), exclude={os.getpid()})
            if not found or time.monotonic() > deadline:
                return found
            time.sleep(0.1)

    def temp_files(self) -> list[str]:
        """What the server left in its TMPDIR."""
        return sorted(str(p.relative_to(self.tmp)) for p in self.tmp.rglob("*"))


def processes_marked(marker: str, path: str, exclude: set[int]) -> list[str]:
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) in exclude:
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                if f.read().rsplit(")", 1)[-1].split()[0] == "Z":
                    continue
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                cmdline = f.read()
            try:
                with open(f"/proc/{entry}/environ", "rb") as f:
                    environ = f.read()
            except OSError:
                environ = b""
        except OSError:
            continue
        if marker.encode() in environ or path.encode() in cmdline:
            words = cmdline.replace(b"\0", b" ").decode(errors="replace")[:200]
            found.append(f"{entry} {words}")
    return found


def default_cache_dir() -> Path:
    """The result cache the tests use unless told otherwise: the user's own (toolchain files that
    are generated once, such as device bitcode, live beside the results)."""
    from cass_lsp.core.dirs import cache_root

    return cache_root()


EDITOR_CAPABILITIES: Json = {
    "textDocument": {
        "synchronization": {"didSave": True, "dynamicRegistration": False},
        "hover": {"contentFormat": ["markdown", "plaintext"]},
        "codeAction": {
            "codeActionLiteralSupport": {"codeActionKind": {"valueSet": ["quickfix", "refactor", "source"]}},
            "resolveSupport": {"properties": ["edit"]},
            "dataSupport": True,
        },
        "documentSymbol": {"hierarchicalDocumentSymbolSupport": True},
        "publishDiagnostics": {"versionSupport": True},
    },
    "workspace": {"applyEdit": True, "configuration": True, "workspaceEdit": {"documentChanges": True}},
    "window": {"workDoneProgress": True},
    "general": {"positionEncodings": ["utf-16"]},
}
