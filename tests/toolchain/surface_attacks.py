"""Hostile repositories and clients of issue #26 against the CLI and the socket server, outside the
run sandbox (tests/toolchain/sandbox_attacks.py has those inside it): shared by the tests and
benchmarks/attack_lsp.py.

Each ``*_attack`` function builds a real repository (or connects real clients), runs the real
``cass-lsp`` command on it in a subprocess and returns an :class:`Attempt`: whether the defect was
stopped, and what the command left running. Every command runs under :func:`contained`: its own
session, a wall-clock bound, an address-space bound (a compiler reading ``/dev/zero`` must not take
the machine's memory when nothing else stops it) and, with this process a child subreaper, every
process it leaves behind is seen, counted and killed.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

ROOT = Path(__file__).resolve().parents[2]
CLI = [sys.executable, "-m", "cass_lsp"]
GCC = "/usr/bin/gcc"
COMMAND_TIMEOUT_S = 240.0
ADDRESS_SPACE_CAP = 3 << 30
"""The outer bound of every command (its compilers included): what an unstopped attack may take."""
SECRET_MARK = "cass-surface-secret-52c9"
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
"""The commands' environment: this checkout's cass_lsp first."""

MAIN = """#include <cstdio>
#include <cuda_runtime.h>
__global__ void k(int* x) { x[threadIdx.x] = threadIdx.x; }
int main() {
  int* d;
  cudaMalloc(&d, 32 * sizeof(int));
  k<<<1, 32>>>(d);
  cudaDeviceSynchronize();
  cudaFree(d);
  std::printf("ok\\n");
  return 0;
}
"""
HIP_MAIN = (MAIN.replace("cuda_runtime.h", "hip/hip_runtime.h").replace("cudaMalloc", "hipMalloc")
            .replace("cudaDeviceSynchronize", "hipDeviceSynchronize").replace("cudaFree", "hipFree"))


class Attempt(NamedTuple):
    blocked: bool
    leftovers: list[str]
    detail: str  # what was seen, in words


class Ran(NamedTuple):
    code: int | None  # None: killed at the wall-clock bound
    out: str
    err: str
    peak_rss_mb: float  # the largest of the command and the processes it waited for
    leftovers: list[str]


def _subreaper() -> None:
    """Make this process the reaper of its orphaned descendants, so that a daemon a command leaves
    reparents here (where :func:`contained` finds it) instead of to init."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(36, 1, 0, 0, 0) != 0:  # PR_SET_CHILD_SUBREAPER
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER)")


def _children() -> list[int]:
    """Processes whose parent is this one."""
    mine = os.getpid()
    found = []
    for stat_file in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat_file.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == mine:
            found.append(int(stat_file.parent.name))
    return found


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace").strip()
    except OSError:
        return "?"


def contained(argv: list[str], *, cwd: Path, stdin: bytes = b"", timeout: float = COMMAND_TIMEOUT_S) -> Ran:
    """Run ``argv`` (a cass-lsp command) bounded as the module says; what it leaves is killed."""
    _subreaper()
    before = set(_children())
    process = subprocess.Popen(
        ["/usr/bin/prlimit", f"--as={ADDRESS_SPACE_CAP}", "--", *argv],  # prlimit execs: the same pid
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd,
        env=ENV, start_new_session=True,
    )
    assert process.stdin is not None and process.stdout is not None and process.stderr is not None
    streams: dict[str, bytes] = {}
    readers = [threading.Thread(target=lambda n=name, f=stream: streams.__setitem__(n, f.read()))
               for name, stream in (("out", process.stdout), ("err", process.stderr))]
    for reader in readers:
        reader.start()
    with contextlib.suppress(BrokenPipeError):
        process.stdin.write(stdin)
    process.stdin.close()
    timer = threading.Timer(timeout, os.killpg, (process.pid, signal.SIGKILL))
    timer.start()
    # wait4, not wait: its rusage is this command's own (ru_maxrss: the largest of it and the
    # processes it waited for, compilers included)
    _, status, usage = os.wait4(process.pid, 0)
    timed_out = not timer.is_alive()
    timer.cancel()
    process.returncode = os.waitstatus_to_exitcode(status)
    for reader in readers:
        reader.join(30)
    time.sleep(0.3)  # a descendant still exiting has not reparented yet
    left = []
    for pid in set(_children()) - before:
        left.append(f"{pid}: {_cmdline(pid)}")
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)
    return Ran(None if timed_out else process.returncode, streams.get("out", b"").decode("utf-8", "replace"),
               streams.get("err", b"").decode("utf-8", "replace"), usage.ru_maxrss / 1024, left)


def _verify(repo: Path, *extra: str, stdin: bytes = b"") -> Ran:
    return contained([*CLI, "verify", str(repo / "main.cu"), "--rocm", "5.2", "--no-cache", *extra], cwd=repo,
                     stdin=stdin)


def _repository(root: Path, arguments: list[str], source: str = MAIN) -> Path:
    """A program folder with ``main.cu``, its translation and a compile_commands.json entry."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "main.cu").write_text(source)
    (root / "main.hip").write_text(source.replace(MAIN, HIP_MAIN))
    entry = {"directory": str(root), "file": "main.cu", "arguments": arguments}
    (root / "compile_commands.json").write_text(json.dumps([entry]))
    return root


COMMAND_RUNNER = ["--runner", "command", "--command", "/bin/echo", "{exe}", "--build-for", "nvidia"]


def nvvmpath_attack(root: Path) -> Attempt:
    """(a) nvlink loads ``--nvvmpath``'s libnvvm.so: the repository ships one, reached by an
    include inside ``#if 0`` so that it is copied beside the program, and names its folder through
    compile_commands.json. Blocked: its constructor never ran."""
    marker = root / "constructor-ran"
    library = root / "repo" / "evil" / "lib64"
    library.mkdir(parents=True)
    (root / "evil.c").write_text(
        "#include <fcntl.h>\n#include <unistd.h>\n"
        f'__attribute__((constructor)) static void hit(void) {{ close(open("{marker}", O_CREAT | O_WRONLY, 0600)); }}\n'
    )
    subprocess.run([GCC, "-shared", "-fPIC", "-o", str(library / "libnvvm.so"), str(root / "evil.c")], check=True,
                   timeout=120)
    source = '#if 0\n#include "evil/lib64/libnvvm.so"\n#endif\n' + MAIN
    repo = _repository(root / "repo", ["nvcc", "-Xnvlink", "--nvvmpath=src/evil,-lto", "-c", "main.cu"], source)
    ran = _verify(repo, *COMMAND_RUNNER)
    loaded = marker.exists()
    return Attempt(not loaded, ran.leftovers, "the library's constructor ran" if loaded else "never loaded")


def dev_zero_attack(root: Path) -> Attempt:
    """(c) ``#include "/dev/zero"``: a preprocessor reads it until memory runs out. Blocked: the
    command ends on its own with a verdict, its processes stayed below half the outer address-space
    cap (1.5 GB: a bound looser than that is not told apart from the cap here), and nothing is left
    running."""
    repo = _repository(root / "repo", ["nvcc", "-c", "main.cu"], '#include "/dev/zero"\n' + MAIN)
    ran = _verify(repo)
    bounded = ran.code is not None and bool(ran.out.strip()) and ran.peak_rss_mb < ADDRESS_SPACE_CAP / 2**20 / 2
    detail = f"exit {ran.code}, peak RSS {ran.peak_rss_mb:.0f} MB"
    return Attempt(bounded and not ran.leftovers, ran.leftovers, detail)


def stdin_response_file_attack(root: Path) -> Attempt:
    """(f) ``@/dev/stdin`` in compile_commands.json: the flags it holds come from whoever feeds the
    command's standard input, not from the repository's files. Blocked: not read (the -D it holds
    never reaches the compile)."""
    guarded = "#ifdef CASS_READ_STDIN\n#error stdin-was-read\n#endif\n" + MAIN
    repo = _repository(root / "repo", ["nvcc", "@/dev/stdin", "-c", "main.cu"], guarded)
    ran = _verify(repo, "--json", stdin=b"-DCASS_READ_STDIN\n")
    read = "stdin-was-read" in ran.out + ran.err or ran.code is None
    return Attempt(not read, ran.leftovers, "read" if read else "not read")


def options_file_attack(root: Path) -> Attempt:
    """(f) ``-Xptxas --options-file=FILE`` naming a file outside the tree (standing for
    /etc/shadow): ptxas would read it and quote it in its error. Blocked: not read (its access time
    does not move; the mount is relatime and the file's atime is set older than its mtime)."""
    secret = root / "shadow"
    secret.write_text(f"--{SECRET_MARK}\n")
    os.utime(secret, (0, time.time()))
    repo = _repository(root / "repo", ["nvcc", "-Xptxas", f"--options-file={secret}", "-c", "main.cu"])
    ran = _verify(repo, "--json", *COMMAND_RUNNER)
    quoted, touched = SECRET_MARK in ran.out + ran.err, secret.stat().st_atime > 0
    detail = "read, and quoted in the output" if quoted else "read (its access time moved)" if touched else "not read"
    return Attempt(not (quoted or touched), ran.leftovers, detail)


def symlink_translate_attack(root: Path) -> Attempt:
    """(g) ``kernels.cu -> secret`` in a tree: ``translate --out-dir`` must not write the secret's
    text into the port, nor ``--in-place`` turn the link into a file holding it. Blocked: no
    regular file of the output holds the secret, and the link is still a link to an unchanged file."""
    secret = root / "id_ed25519"
    secret.write_text(f"// {SECRET_MARK}\n" + MAIN)
    tree = root / "tree"
    tree.mkdir()
    (tree / "main.cu").write_text(MAIN)
    (tree / "kernels.cu").symlink_to(secret)
    (tree / "data.txt").symlink_to(secret)
    out = root / "out"
    copied = contained([*CLI, "translate", str(tree), "--out-dir", str(out), "--rocm", "5.2"], cwd=root)
    in_place = contained([*CLI, "translate", str(tree), "--in-place", "--rocm", "5.2"], cwd=root)
    holding = [str(p) for p in out.rglob("*") if p.is_file() and not p.is_symlink() and SECRET_MARK in p.read_text()]
    replaced = not (tree / "kernels.cu").is_symlink() or SECRET_MARK not in secret.read_text().splitlines()[0]
    blocked = copied.code == 0 and in_place.code == 0 and not holding and not replaced
    detail = f"secret written to {', '.join(holding)}" if holding else "the link was replaced" if replaced else "left alone"
    return Attempt(blocked, copied.leftovers + in_place.leftovers, detail)


ESCAPES = "\x1b]0;owned\x07\x1b[2J\r\x9b31m"


def escape_attack(root: Path) -> Attempt:
    """(i) an ``#error`` holding terminal escapes, which nvcc and clang echo back and ``verify``
    prints. Blocked: no control character but newline and tab reaches the terminal."""
    hostile = f'#error "{ESCAPES}"\n'
    repo = _repository(root / "repo", ["nvcc", "-c", "main.cu"], hostile + MAIN)
    ran = _verify(repo)
    raw = [c for c in "\x1b\x07\r\x9b" if c in ran.out + ran.err]
    return Attempt(not raw and ran.code is not None, ran.leftovers, f"raw {raw!r}" if raw else "escaped")


# ---------------------------------------------------------------------- the socket server


HOSTILE_CONNECTIONS = 100
HOSTILE_BYTES = 1_000_000
RSS_SLACK_MB = 20.0
"""How far the server's memory may rise over the flood, at its peak and after (100 MB read would be 100)."""


def rss_mb(pid: int, field: str = "VmRSS") -> float:
    """A process's resident memory now (``VmRSS``) or at its highest so far (``VmHWM``)."""
    status = Path(f"/proc/{pid}/status").read_text()
    match = re.search(rf"{field}:\s+(\d+) kB", status)
    assert match is not None, status
    return int(match.group(1)) / 1024


def send_hostile(address: tuple[str, int]) -> None:
    """One stranger sending a 1 MB first message; the server may close on it midway."""
    body = b'{"jsonrpc": "2.0", "method": "initialize", "params": {"x": "' + b"x" * HOSTILE_BYTES + b'"}}'
    with contextlib.suppress(OSError), socket.create_connection(address, timeout=20) as sock:
        sock.sendall(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        sock.recv(1)


def hostile_connections(address: tuple[str, int], count: int = HOSTILE_CONNECTIONS) -> None:
    """``count`` strangers at once, each sending :func:`send_hostile`'s message."""
    threads = [threading.Thread(target=send_hostile, args=(address,)) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)


@contextlib.contextmanager
def served(root: Path) -> Iterator[tuple[subprocess.Popen[bytes], tuple[str, int], str]]:
    """A ``cass-lsp serve --tcp --port 0``: (process, address, token)."""
    log = root / "server.log"
    env = {**ENV, "CASS_LSP_RUNTIME_DIR": str(root / "run"), "CASS_LSP_CONFIG_DIR": str(root / "config")}
    with open(log, "wb") as stderr:
        process = subprocess.Popen([*CLI, "--log-level", "info", "serve", "--tcp", "--port", "0"],
                                   stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=stderr, env=env,
                                   cwd=root)
    try:
        deadline = time.monotonic() + 60
        while not (found := re.search(r"listening on 127.0.0.1:(\d+).*?token in (\S+)", log.read_text(), re.DOTALL)):
            if time.monotonic() > deadline or process.poll() is not None:
                raise AssertionError(f"the server did not start:\n{log.read_text()}")
            time.sleep(0.05)
        yield process, ("127.0.0.1", int(found.group(1))), Path(found.group(2)).read_text().strip()
    finally:
        process.kill()
        process.wait()


def _initialize(address: tuple[str, int], token: str) -> Any:
    """The answer to an initialize carrying ``token``; None when the server closed instead."""
    params = {"processId": None, "rootUri": None, "capabilities": {}, "initializationOptions": {"token": token}}
    message = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params}).encode()
    with socket.create_connection(address, timeout=60) as sock:
        sock.sendall(b"Content-Length: %d\r\n\r\n" % len(message) + message)
        data = b""
        while True:
            head, _, body = data.partition(b"\r\n\r\n")
            length = re.search(rb"Content-Length: (\d+)", head)
            if length is not None and len(body) >= int(length.group(1)):
                return json.loads(body[: int(length.group(1))])
            chunk = sock.recv(65536)
            if not chunk:
                return None
            data += chunk


def unauthenticated_flood_attack(root: Path) -> Attempt:
    """(h) 100 connections without the token, each sending a 1 MB first message. Blocked: a 1 MB
    first message is refused on its header (the connection closes before the body is sent), the
    server's RSS at its peak and after the flood stays within :data:`RSS_SLACK_MB` of its start,
    and the client with the token is still served."""
    root.mkdir(parents=True, exist_ok=True)
    with served(root) as (process, address, token):
        send_hostile(address)  # what the first connection loads is not the strangers' cost
        before = rss_mb(process.pid)
        with socket.create_connection(address, timeout=30) as probe:
            probe.sendall(b"Content-Length: 1000000\r\n\r\n")
            started = time.monotonic()
            with contextlib.suppress(OSError):
                probe.recv(1)
            early = time.monotonic() - started < 3.0
        hostile_connections(address)
        time.sleep(1.0)
        after, peak = rss_mb(process.pid), rss_mb(process.pid, "VmHWM")
        answer = _initialize(address, token)
        served_ok = answer is not None and answer.get("result", {}).get("serverInfo", {}).get("name") == "cass-lsp"
    blocked = early and max(after, peak) - before < RSS_SLACK_MB and served_ok
    detail = (f"RSS {before:.0f} -> {after:.0f} MB (peak {peak:.0f}), "
              + ("refused on the header" if early else "body awaited"))
    return Attempt(blocked, [], detail + ("" if served_ok else ", the client with the token was not served"))


def attempts() -> list[tuple[str, Any]]:
    """Every attempt outside the sandbox: (label, function of a fresh folder)."""
    return [
        ("nvlink --nvvmpath loads the repo's libnvvm.so", nvvmpath_attack),
        ('#include "/dev/zero" in a compile', dev_zero_attack),
        ("response file @/dev/stdin", stdin_response_file_attack),
        ("-Xptxas --options-file=<secret>", options_file_attack),
        ("translate a kernels.cu -> secret link", symlink_translate_attack),
        ("100 unauthenticated 1 MB connections", unauthenticated_flood_attack),
        ("ESC sequences in an #error shown by verify", escape_attack),
    ]
