"""The server leaves nothing behind: closing the editor's end kills compiles still running."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
import uuid
from pathlib import Path

from benchmarks._corpus import cuda_source

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
