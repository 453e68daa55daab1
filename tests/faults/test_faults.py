"""Fault injection through the real server over stdio: broken toolchains, broken model files, an
unusable cache, a storm of file events, a client that vanishes, SIGTERM during a compile.

Faults come from outside, as a user's machine would have them: fake tool binaries found through
``CASS_LSP_LLVM_DIR`` (the AMD toolchain's folder), model paths in the settings, a cache folder
through ``CASS_LSP_CACHE_DIR``, real files written into a watched workspace. Nothing of the server
is mocked. Each case checks: the server stays up and answers, says what is wrong once (not once per
keystroke), and leaves no child process and no temp file behind.
"""

from __future__ import annotations

import os
import signal
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.fuzz.wire import WireServer, default_cache_dir

KERNEL = """#include <cuda_runtime.h>
__global__ void scale(float* x, float a, int n) {{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}}
// {tag}
"""
FAKE_VERSION = "clang version 19.1.99-fault-injection"
BEHAVIOURS = {
    # what the fake clang++ does when asked to compile (its --version is sound unless said)
    "hangs": "sleep 300 &\nexec sleep 300\n",
    "crashes": "kill -SEGV $$\n",
    "prints garbage": "head -c 20000 /dev/urandom\nhead -c 5000 /dev/urandom >&2\nexit 0\n",
    "fails with garbage": "head -c 3000 /dev/urandom >&2\nexit 1\n",
}


def fake_llvm(folder: Path, behaviour: str | None, *, version_ok: bool = True, executable: bool = True) -> Path:
    """A folder for CASS_LSP_LLVM_DIR holding a fake clang++ (and a sound llvm-as beside it)."""
    folder.mkdir(parents=True, exist_ok=True)
    if behaviour is None:
        return folder  # "missing": the folder holds no clang++
    version = (
        f'echo "{FAKE_VERSION}"; echo "Target: x86_64-pc-linux-gnu"; exit 0'
        if version_ok
        else "head -c 500 /dev/urandom; exit 0"
    )
    clang = folder / "clang++"
    # the device-library setup asks clang for the target's datalayout first: a sound answer, so
    # that the fault shows in the compile itself
    layout = """*-emit-llvm*) echo 'target datalayout = "e-p:64:64"'; exit 0;;"""
    # discovery asks which AMD targets a clang knows: a sound answer, so that the fault is the compile's
    cpus = """*--print-supported-cpus*) printf 'Available CPUs for this target:\\n\\n\\tgfx1030\\n\\tgfx1100\\n'; exit 0;;"""
    clang.write_text(f'#!/bin/sh\ncase "$1" in --version) {version};; esac\ncase "$*" in {layout} {cpus} esac\n{behaviour}')
    llvm_as = folder / "llvm-as"
    llvm_as.write_text(
        '#!/bin/sh\ncase "$1" in --version) echo "LLVM version 19.1.99"; exit 0;; esac\n'
        'while [ $# -gt 0 ]; do [ "$1" = -o ] && : > "$2"; shift; done\n'
    )
    for tool in (clang, llvm_as):
        tool.chmod(0o755 if executable else 0o644)
    return folder


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "workspace"
    root.mkdir()
    return root


def private_cache(tmp_path: Path) -> Path:
    """A cache folder of the test's own: what fake tools generate (device libraries keyed by the
    fake clang's version) and results never reach the user's cache; the downloaded header sets are
    shared by links, read only."""
    cache = tmp_path / "cache"
    cache.mkdir(exist_ok=True)
    for generated in default_cache_dir().iterdir():
        if generated.name not in ("results", "amdgcn-19") and not (cache / generated.name).exists():
            (cache / generated.name).symlink_to(generated)
    return cache


def start(
    tmp_path: Path, root: Path, settings: dict[str, Any], env: dict[str, str] | None = None, trusted: bool = False
) -> WireServer:
    env = {"CASS_LSP_CACHE_DIR": str(private_cache(tmp_path)), **(env or {})}
    server = WireServer(tmp_path / "server", env=env, settings=settings)
    reply = server.initialize({**settings, "workspaceTrusted": trusted}, root=root)
    assert "result" in reply, reply
    return server


def open_kernel(server: WireServer, root: Path, name: str = "k.cu") -> str:
    uri = (root / name).as_uri()
    text = KERNEL.format(tag=uuid.uuid4())  # a new text: no cached listing can answer for the fake
    server.notify(
        "textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "cuda", "version": 1, "text": text}}
    )
    return uri


def edit(server: WireServer, uri: str, version: int) -> None:
    change = {
        "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
        "text": f"// {version}\n",
    }
    server.notify(
        "textDocument/didChange", {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]}
    )


def messages(server: WireServer, *needles: str) -> list[str]:
    found = [str(n.get("params", {}).get("message", "")) for n in server.notifications_of("window/showMessage")]
    return [m for m in found if any(needle in m for needle in needles)]


def finish(server: WireServer) -> None:
    """Shut the server down normally: exit code 0, no child process, no temp file left."""
    assert server.alive, server.stderr()[-3000:]
    assert server.close() == 0, server.stderr()[-3000:]
    assert server.leftovers() == []
    assert server.temp_files() == []


ASM = {"asm": {"targets": ["gfx1100"], "compileOnOpen": False, "timeoutSeconds": 3}, "verification": {"enabled": False}}


@pytest.mark.parametrize(
    "fault",
    ["missing", "not executable", "version prints garbage", *BEHAVIOURS],
)
def test_a_broken_compiler_is_reported_once_and_leaves_nothing(tmp_path: Path, workspace: Path, fault: str) -> None:
    behaviour = BEHAVIOURS.get(fault, "exit 0\n")
    tools = fake_llvm(
        tmp_path / "llvm",
        None if fault == "missing" else behaviour,
        version_ok=fault != "version prints garbage",
        executable=fault != "not executable",
    )
    server = start(tmp_path, workspace, ASM, env={"CASS_LSP_LLVM_DIR": str(tools)})
    try:
        uri = open_kernel(server, workspace)
        replies = []
        for version in (2, 3, 4):  # keystrokes: each new text asks again
            edit(server, uri, version)
            reply = server.call("cass/assembly", {"uri": uri}, timeout=120)
            assert "result" in reply, reply
            replies.append(reply["result"]["results"][0])
            hover = server.call(
                "textDocument/hover",
                {"textDocument": {"uri": uri}, "position": {"line": 3, "character": 4}},
                timeout=30,
            )
            assert "result" in hover, hover
        kinds = {r["kind"] for r in replies}
        if fault in ("missing", "not executable", "version prints garbage"):
            assert kinds == {"unavailable"}, replies
            assert len(messages(server, "no gfx1100 listings")) == 1  # said once, not per keystroke
        else:
            assert kinds == {"failure"}, replies  # a compile that failed, said as such in the reply
            assert all(r["timedOut"] == (fault == "hangs") for r in replies), replies
            # compile failures go to diagnostics of the document, not to pop-ups
            assert messages(server, "gfx1100") == []
    finally:
        finish(server)


def test_a_hanging_compiler_is_stopped_at_its_timeout(tmp_path: Path, workspace: Path) -> None:
    tools = fake_llvm(tmp_path / "llvm", BEHAVIOURS["hangs"])
    server = start(tmp_path, workspace, ASM, env={"CASS_LSP_LLVM_DIR": str(tools)})
    try:
        uri = open_kernel(server, workspace)
        started = time.monotonic()
        reply = server.call("cass/assembly", {"uri": uri}, timeout=120)
        elapsed = time.monotonic() - started
        result = reply["result"]["results"][0]
        assert result["kind"] == "failure" and result["timedOut"] is True, result
        assert "process group was killed" in reply["result"]["text"]
        assert elapsed < 60  # timeoutSeconds is 3: generous for a loaded machine
        assert not any("sleep 300" in p for p in server.leftovers(wait_s=5))  # the helper it forked too
    finally:
        finish(server)


def gguf_with_architecture(path: Path, architecture: str) -> Path:
    import gguf

    writer = gguf.GGUFWriter(str(path), architecture)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path


def model_faults(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    tmp_path.mkdir()
    yield "missing", tmp_path / "nowhere" / "model.gguf"
    truncated = tmp_path / "truncated.gguf"
    truncated.write_bytes(b"GGUF\x03\x00\x00\x00" + b"\x00" * 5)
    yield "truncated", truncated
    yield "wrong architecture", gguf_with_architecture(tmp_path / "bert.gguf", "bert")
    unreadable = tmp_path / "folder.gguf"
    unreadable.mkdir()  # a folder where a file should be: unreadable as a model, also to root
    yield "unreadable", unreadable
    garbage = tmp_path / "garbage.gguf"
    garbage.write_bytes(os.urandom(4096))
    yield "garbage", garbage


def test_broken_model_files_are_refused_with_a_reason_and_the_server_stays_up(tmp_path: Path, workspace: Path) -> None:
    settings: dict[str, Any] = {"asm": {"compileOnOpen": False, "targets": []}, "verification": {"enabled": False}}
    server = start(tmp_path, workspace, settings, trusted=True)  # a model file's path applies only when trusted
    survived = 0
    try:
        uri = open_kernel(server, workspace)
        for name, path in model_faults(tmp_path / "models"):
            settings = {**settings, "model": {"name": str(path)}}
            server.settings = settings  # what the server pulls back after the push
            server.notify("workspace/didChangeConfiguration", {"settings": {"cass": settings}})
            server.call("textDocument/documentSymbol", {"textDocument": {"uri": uri}})  # settled
            before = len(server.notifications_of("window/showMessage"))
            request = {"uri": uri, "version": 1, "start": 0, "end": 60, "scope": "selection"}
            reply = server.call("cass/translateWithModel", request, timeout=120)
            assert reply.get("result", {}).get("applied") is False, (name, reply)
            assert reply["result"]["reason"], (name, reply)
            shown = server.notifications_of("window/showMessage")[before:]
            assert len(shown) <= 1, (name, shown)  # one request, at most one message
            hover = server.call(
                "textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 2, "character": 4}}
            )
            assert "result" in hover
            survived += 1
    finally:
        finish(server)
    assert survived == 5


def test_an_unusable_cache_folder_costs_only_the_disk_cache(tmp_path: Path, workspace: Path) -> None:
    cache = private_cache(tmp_path)
    if (default_cache_dir() / "amdgcn-19").exists():  # the real clang's device libraries: shared
        (cache / "amdgcn-19").symlink_to(default_cache_dir() / "amdgcn-19")
    (cache / "results").write_text("a file where the result cache's folder should be\n")
    server = start(tmp_path, workspace, ASM, env={"CASS_LSP_CACHE_DIR": str(cache)})
    try:
        uri = open_kernel(server, workspace)
        for version in (2, 3):
            edit(server, uri, version)
            reply = server.call("cass/assembly", {"uri": uri}, timeout=300)
            assert reply["result"]["results"][0]["kind"] == "listing", reply
        assert server.stderr().count("is not writable") == 1  # said once
    finally:
        finish(server)


def test_a_storm_of_file_events_keeps_the_server_answering(tmp_path: Path, workspace: Path) -> None:
    settings = {
        "asm": {"compileOnOpen": False, "targets": []},
        "verification": {"enabled": True, "watch": True, "debounceMs": 50, "maxQueued": 4, "arches": ["gfx1100"]},
    }
    tools = fake_llvm(tmp_path / "llvm", "exit 1\n")  # verification compiles fail fast: the storm is the load
    server = start(tmp_path, workspace, settings, env={"CASS_LSP_LLVM_DIR": str(tools)})
    events = 0
    try:
        uri = open_kernel(server, workspace)
        time.sleep(1.0)  # the watcher starts after `initialized`
        for round_ in range(10):
            for number in range(500):
                (workspace / f"header{number}.h").write_text(f"// {round_}\n")
                events += 1
            for number in range(20):  # pairs with a translation file: these reach the verification queue
                (workspace / f"unit{number}.cu").write_text(f"__global__ void k{number}() {{}} // {round_}\n")
                (workspace / f"unit{number}.hip").write_text(f"__global__ void k{number}() {{}} // {round_}\n")
                events += 2
            reply = server.call(
                "textDocument/hover",
                {"textDocument": {"uri": uri}, "position": {"line": 2, "character": 4}},
                timeout=30,
            )
            assert "result" in reply
        # every write is at least one inotify event (create, modify, close): >= 10k events
        assert events * 2 >= 10_000
        # the dropped-change warning comes once, then every 100th drop: not once per event
        warnings = server.stderr().count("verification queue full")
        assert 1 <= warnings <= 1 + events // 100, warnings
        rss_mb = int(Path(f"/proc/{server.proc.pid}/status").read_text().split("VmRSS:")[1].split()[0]) // 1024
        assert rss_mb < 2048, rss_mb
    finally:
        finish(server)


def compile_in_flight(tmp_path: Path, root: Path) -> tuple[WireServer, Any]:
    """A server whose (fake, hanging) compile is running, with its request waiting on it."""
    tools = fake_llvm(tmp_path / "llvm", BEHAVIOURS["hangs"])
    settings = {
        "asm": {"targets": ["gfx1100"], "compileOnOpen": False, "timeoutSeconds": 600},
        "verification": {"enabled": False},
    }
    server = start(tmp_path, root, settings, env={"CASS_LSP_LLVM_DIR": str(tools)})
    uri = open_kernel(server, root)
    request = server.request("cass/assembly", {"uri": uri})
    deadline = time.monotonic() + 60
    while not any("sleep 300" in p for p in server.leftovers(0)):
        assert time.monotonic() < deadline, "the compile never started"
        time.sleep(0.1)
    return server, request


def test_a_client_that_disappears_mid_request_takes_the_server_and_its_compiles_with_it(
    tmp_path: Path, workspace: Path
) -> None:
    server, _ = compile_in_flight(tmp_path, workspace)
    server.close_stdin()  # the editor crashed: no shutdown, no exit
    server.proc.wait(60)
    server.kill()
    assert server.leftovers(wait_s=10) == []
    assert server.temp_files() == []


def test_sigterm_during_a_compile_ends_the_server_and_the_compile(tmp_path: Path, workspace: Path) -> None:
    server, _ = compile_in_flight(tmp_path, workspace)
    code = server.kill(signal.SIGTERM)
    assert code in (0, -signal.SIGTERM, 128 + signal.SIGTERM), code
    assert server.leftovers(wait_s=10) == []
    assert server.temp_files() == []


def test_a_server_killed_mid_generation_takes_its_model_worker_along(tmp_path: Path, workspace: Path) -> None:
    from cass_lsp.infer.tiny_model import write_tiny_model

    model = tmp_path / "cass-tiny-endless.gguf"
    write_tiny_model(model, "```amd\nloop\n```", endless=True)
    settings = {**ASM, "model": {"name": str(model), "nThreads": 1, "nCtx": 32768, "maxTokens": 100000}}
    server = start(tmp_path, workspace, settings, trusted=True)  # a model file's path applies only when trusted
    uri = (workspace / "long.cu").as_uri()
    # an answer may take about twice the region's tokens: a long region streams for seconds
    text = KERNEL.format(tag="a long note " * 400)
    server.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "cuda", "version": 1, "text": text}})
    request = {"uri": uri, "version": 1, "start": 0, "end": len(text.encode()), "scope": "file"}
    server.request("cass/translateWithModel", request)
    streaming = server.wait_notification(
        "$/progress", lambda p: isinstance(p.get("value"), dict) and p["value"].get("kind") == "report", 120)
    assert streaming is not None, server.stderr()[-3000:]
    assert any("cass_lsp.infer.worker" in p for p in server.leftovers(0))
    server.kill(signal.SIGKILL)  # no shutdown, no cleanup: the server is simply gone
    assert server.leftovers(wait_s=10) == []
