"""The `cass-lsp` command line as a user runs it: real processes, real tools."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import msgspec

from cass_lsp import __version__

CLI = [sys.executable, "-m", "cass_lsp"]


def run(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=timeout, check=False)


def test_version() -> None:
    result = run("--version")
    assert result.returncode == 0 and result.stdout.strip() == f"cass-lsp {__version__}"


def test_doctor_json_lists_the_toolchains_as_found() -> None:
    result = run("doctor", "--json")
    report = json.loads(result.stdout)
    tools = {tool["name"]: tool for tool in report["tools"]}
    for name in ("nvcc", "nvdisasm", "cuobjdump", "clang++-19", "HIP headers (ROCm 5.2)", "python: tree-sitter-cuda"):
        assert tools[name]["found"], (name, tools[name])
        assert tools[name]["version"]
    assert "nvidia/cu13/bin/nvcc" in tools["nvcc"]["path"]  # the wheel's nvcc, not a system one
    assert report["missing"] == 0 and result.returncode == 0
    # each tool says whether it is needed, so editors need not copy the rule (the VS Code installer)
    assert not tools["nvcc"]["optional"] and tools["runner cpu"]["optional"]


def test_doctor_names_a_bad_model_file(tmp_path: object) -> None:
    from pathlib import Path

    bogus = Path(str(tmp_path)) / "not-a-model.gguf"
    bogus.write_bytes(b"nope")
    result = run("doctor", "--model", str(bogus))
    assert f"{bogus}: not a GGUF file" in result.stdout


def test_schema_is_json_schema_of_every_setting() -> None:
    result = run("schema")
    schema = json.loads(result.stdout)
    settings = schema["$defs"]["Settings"]["properties"]
    assert {"target", "translate", "diagnostics", "asm", "model", "maxParseBytes", "logLevel"} <= set(settings)
    assert schema["$defs"]["TargetProfile"]["properties"]["arch"]["default"] == "gfx1100"


def test_demo_lists_kernels_launches_and_api_calls() -> None:
    result = run("demo", timeout=300)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "global      saxpy" in out and "global      squared_norm" in out and "device      warp_sum" in out
    assert "saxpy<<<grid, kBlock, 0, stream>>>" in out
    assert "cudaMalloc" in out and "cudaStreamCreate" in out
    assert "rule translation to HIP" in out and "+#include <hip/hip_runtime.h>" in out
    assert "**squared_norm**" in out and "| sm_90 | gfx1100 |" in out and "VGPR" in out
    assert "cass-lsp doctor" in out


def test_unknown_verb_argument_is_a_clear_error() -> None:
    result = run("doctor", "--no-such-flag")
    assert result.returncode == 2 and "unrecognized arguments" in result.stderr


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def test_tcp_server_answers_initialize_on_loopback(tmp_path: Path) -> None:
    port = _free_port()
    env = {**os.environ, "CASS_LSP_RUNTIME_DIR": str(tmp_path)}  # where the server writes its token
    server = subprocess.Popen([*CLI, "serve", "--tcp", "--port", str(port)], stderr=subprocess.DEVNULL, env=env)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                conn = socket.create_connection(("127.0.0.1", port), timeout=5)
                break
            except OSError:
                assert time.monotonic() < deadline, "server did not listen"
                time.sleep(0.1)
        with conn:
            body = msgspec.json.encode(
                {
                    "jsonrpc": "2.0",
                    "id": 1,
                    "method": "initialize",
                    "params": {
                        "capabilities": {},
                        "processId": None,
                        "initializationOptions": {"token": (tmp_path / f"tcp-{port}.token").read_text().strip()},
                    },
                }
            )
            conn.sendall(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            data = b""
            while b"serverInfo" not in data or not data.endswith(b"}"):
                chunk = conn.recv(65536)
                assert chunk, "connection closed"
                data += chunk
        reply = json.loads(data.split(b"\r\n\r\n", 1)[1])
        assert reply["result"]["serverInfo"]["name"] == "cass-lsp"
        assert reply["result"]["capabilities"]["documentSymbolProvider"] is True
    finally:
        server.terminate()
        server.wait(timeout=10)
