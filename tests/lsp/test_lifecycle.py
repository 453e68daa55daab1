"""The server leaves nothing behind: closing the editor's end, or SIGKILL, kills compiles still running."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import signal
import sys
import time
import uuid
from pathlib import Path
from typing import Any

from benchmarks._corpus import cuda_source
from tests.fuzz.wire import WireServer

EXIT_SECONDS = 8


def _children() -> dict[int, int]:
    """pid -> parent pid of every process on the machine."""
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    # the command name may hold spaces: the fields after the closing parenthesis
                    fields = stat.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parents[int(entry)] = int(fields[1])
    return parents


def _descendants(root: int) -> set[int]:
    parents = _children()
    found: set[int] = set()
    frontier = {root}
    while frontier:
        frontier = {pid for pid, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


async def test_closing_stdin_mid_compile_kills_every_compiler(tmp_path: Path) -> None:
    path = tmp_path / "big.cu"
    text = cuda_source(8000) + f"// {uuid.uuid4()}\n"  # unique: no cached listing; compiles for many seconds
    path.write_text(text)
    server = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "cass_lsp", "--stdio",
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
    )  # fmt: skip
    assert server.stdin is not None

    def send(message: dict[str, object]) -> None:
        body = json.dumps(message).encode()
        assert server.stdin is not None
        server.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}, "processId": None}})
    send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    item = {"uri": path.as_uri(), "languageId": "cuda", "version": 1, "text": text}
    send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": item}})
    await server.stdin.drain()
    deadline = time.monotonic() + 60
    compilers: set[int] = set()
    while not compilers and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
        compilers = _descendants(server.pid)
    assert compilers, "no compiler started for the opened file"
    server.stdin.close()  # the editor went away without a shutdown request
    # far sooner than the compile of this file would take on its own
    await asyncio.wait_for(server.wait(), EXIT_SECONDS)
    for _ in range(50):
        if not any(_alive(pid) for pid in compilers):
            break
        await asyncio.sleep(0.1)
    assert not [pid for pid in compilers if _alive(pid)]


def _compilers(server: WireServer) -> list[str]:
    return [p for p in server.leftovers(wait_s=0) if re.search(r"nvcc|cc1plus|cudafe|cicc|ptxas|clang", p)]


def test_a_killed_server_leaves_no_compiler_running(tmp_path: Path) -> None:
    """An editor SIGKILLs a hung server: nothing runs its cleanup, and nvcc, the host compiler it
    started and every helper must still die. The include through a macro (which the include check
    cannot see) of a FIFO makes nvcc's preprocessor block for ever without using memory or CPU."""
    root = tmp_path / "workspace"
    root.mkdir()
    os.mkfifo(root / "pipe.h")
    text = f'#define PIPE "pipe.h"\n#include PIPE\n{cuda_source(3)}// {uuid.uuid4()}\n'
    (root / "k.cu").write_text(text)
    server = WireServer(tmp_path / "server")  # default settings, an untrusted workspace
    try:
        assert "result" in server.initialize(None, root=root)
        item = {"uri": (root / "k.cu").as_uri(), "languageId": "cuda", "version": 1, "text": text}
        server.notify("textDocument/didOpen", {"textDocument": item})
        deadline = time.monotonic() + 120
        while not _compilers(server) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert _compilers(server), "no compiler started for the opened file"
        time.sleep(1)  # nvcc has started its host compiler by now
        server.kill(signal.SIGKILL)
        assert server.leftovers(wait_s=10) == []
    finally:
        for line in server.leftovers(wait_s=0):
            with contextlib.suppress(ProcessLookupError):
                os.kill(int(line.split()[0]), signal.SIGKILL)
        if server.alive:
            server.kill()


def test_an_include_of_a_fifo_is_an_error_on_its_line_and_starts_no_compiler(tmp_path: Path) -> None:
    root = tmp_path / "workspace"
    root.mkdir()
    os.mkfifo(root / "pipe.h")
    text = f'{cuda_source(3)}#include "pipe.h"\n'
    line = text.count("\n") - 1
    (root / "k.cu").write_text(text)
    server = WireServer(tmp_path / "server")
    try:
        assert "result" in server.initialize(None, root=root)
        uri = (root / "k.cu").as_uri()
        server.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "cuda", "version": 1, "text": text}})
        server.notify("textDocument/didSave", {"textDocument": {"uri": uri}})  # verification runs on save

        def refused(params: dict[str, Any]) -> bool:
            return params["uri"] == uri and any(
                d["range"]["start"]["line"] == line and "a FIFO, not a regular file" in d["message"]
                for d in params["diagnostics"]
            )

        # the listing (cass-asm) and the verification compile (cass-verify) each say it
        for source in ("cass-asm", "cass-verify"):
            note = server.wait_notification(
                "textDocument/publishDiagnostics",
                lambda p, source=source: refused(p) and any(d.get("source") == source for d in p["diagnostics"]),
                timeout=120,
            )
            assert note is not None, (source, server.notifications_of("textDocument/publishDiagnostics"))
        assert _compilers(server) == []
    finally:
        for leftover in server.leftovers(wait_s=0):
            pid = int(leftover.split()[0])
            if pid != server.proc.pid:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
        server.close()
