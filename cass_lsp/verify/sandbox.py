"""Run an untrusted compiled program (a user's CUDA program or its HIP translation) safely.

Verification runs what the user's code compiled to, so everything here assumes the program is
hostile or simply broken: it may loop, fork without end, allocate without bound, fill the disk,
print forever or daemonize. Each run gets

* an argv list, never a shell, so file names with spaces, quotes, ``;`` or ``$()`` stay literal;
* a fresh working directory and a scrubbed environment (see :func:`fresh_workdir`, :func:`run`);
* rlimits: CPU seconds, address space, file size, no core dumps, and a process cap where the
  kernel enforces one (root is exempt, so a root server drops the program to uid 65534);
* its own process group, killed on timeout or cancel by :func:`cass_lsp.proc.run`, whose output
  capture is bounded so a chatty program cannot grow the server;
* user, network and PID namespaces where the OS allows them without privileges: no network, and
  the kernel kills everything the program started when it ends, even children that setsid().

The confinement is applied by :mod:`cass_lsp.verify.confine`, a launcher run as a fresh
interpreter between the server and the program; :func:`isolation` says what this OS allowed.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import shutil
import signal
import stat
import sys
import tempfile
import threading
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import msgspec

from cass_lsp import proc
from cass_lsp.verify.confine import NOBODY

_LAUNCHER = Path(__file__).with_name("confine.py")
# Fraction of the memory limit a program's peak RSS must reach before a crash is blamed on it.
_MEMORY_BLAME = 0.8
# What a C library prints (perror, strerror, std::bad_alloc) when a limit refused a request; the
# program may exit normally after printing it, so only an unsuccessful end is blamed on the limit.
_ERRNO_TEXT = {
    "processes": ("Resource temporarily unavailable",),
    "memory": ("Cannot allocate memory", "std::bad_alloc", "out of memory"),
    "file size": ("File too large",),
}


class SandboxError(RuntimeError):
    """The sandbox itself failed (the launcher crashed, or isolation probed earlier went away);
    says nothing about the program, which did not run or whose end is unknown."""


class Limits(msgspec.Struct, frozen=True, rename="camel"):
    timeout_seconds: float = 10.0  # wall clock
    cpu_seconds: int = 10
    # Address space; 0 for none, as GPU runtimes reserve far more address space than they use.
    memory_mb: int = 4096
    file_size_mb: int = 64
    processes: int = 64  # the program and everything it starts, threads included
    output_bytes: int = 4_000_000  # kept per stream; more stops the program


class Isolation(msgspec.Struct, frozen=True, rename="camel"):
    """What this OS allowed: see :func:`isolation`."""

    network: bool  # no network reachable, loopback included
    pid_namespace: bool  # descendants cannot outlive the program, setsid() or not
    process_cap: bool  # RLIMIT_NPROC is enforced (not while running as root)
    note: str


class RunOutcome(msgspec.Struct, frozen=True, rename="camel"):
    exit_code: int | None
    signal: int | None
    stdout: bytes
    stderr: bytes
    duration: float
    timed_out: bool = False
    cancelled: bool = False
    # "cpu time", "memory", "file size", "processes" or "output" when a limit stopped the program;
    # best effort from its signal, its peak memory and what it printed.
    limit: str | None = None
    truncated: bool = False
    # The limits it ran under, so that describe() can name the one that stopped it.
    limits: Limits = msgspec.field(default_factory=Limits)

    def describe(self) -> str:
        """One line for a diagnostic, e.g. "killed by SIGSEGV (segmentation fault)"."""
        if self.cancelled:
            return "cancelled"
        if self.timed_out:
            return f"timed out after {self.limits.timeout_seconds:g} s"
        if self.limit is not None:
            return f"stopped: {self.limit} limit ({_limit_value(self.limit, self.limits)})"
        if self.signal is not None:
            return f"killed by {_signal_name(self.signal)}"
        return f"exited {self.exit_code}"


def _limit_value(limit: str, limits: Limits) -> str:
    return {
        "cpu time": f"{limits.cpu_seconds} s",
        "memory": f"{limits.memory_mb} MB",
        "file size": f"{limits.file_size_mb} MB",
        "processes": str(limits.processes),
        "output": f"{limits.output_bytes:,} bytes",
    }[limit]


def _signal_name(number: int) -> str:
    try:
        sig = signal.Signals(number)
    except ValueError:
        return f"signal {number}"
    text = signal.strsignal(sig)
    return f"{sig.name} ({text[0].lower() + text[1:]})" if text else sig.name


@contextlib.contextmanager
def fresh_workdir(prefix: str = "cass-run-") -> Iterator[Path]:
    """A new temporary directory, removed afterwards even if the program made parts of it read-only.

    It lies in the system temp dir, whose parents everyone may traverse: a server running as root
    runs the program as another user, who must reach the directory and the program inside it.
    """
    path = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        yield path
    finally:
        try:
            shutil.rmtree(path)
        except OSError:
            _make_removable(path)
            shutil.rmtree(path)


def _make_removable(top: Path) -> None:
    """Give the owner rwx on every directory below ``top``; iterative because the program may nest
    directories deeper than Python's recursion limit."""
    pending = [top]
    while pending:
        directory = pending.pop()
        os.chmod(directory, stat.S_IRWXU)
        with os.scandir(directory) as entries:
            pending.extend(Path(e.path) for e in entries if e.is_dir(follow_symlinks=False))


@functools.cache
def isolation() -> Isolation:
    """Probe once which isolation this OS allows, by launching ``true`` the way :func:`run` would."""
    with fresh_workdir("cass-probe-") as workdir:
        try:
            _, applied, _ = _launch(["true"], workdir, Limits(), None, None, None, namespaces="try", network=False)
        except SandboxError as e:
            return Isolation(network=False, pid_namespace=False, process_cap=False, note=f"probe failed: {e}")
    if applied is None:
        return Isolation(network=False, pid_namespace=False, process_cap=False, note="probe timed out")
    return Isolation(
        network=applied["namespaces"],
        pid_namespace=applied["namespaces"],
        process_cap=applied["processCap"],
        note=applied["note"],
    )


def run(
    argv: Sequence[str | os.PathLike[str]],
    *,
    workdir: Path,
    limits: Limits = Limits(),  # noqa: B008 - frozen, so one shared default is safe
    stdin: bytes | None = None,
    env: Mapping[str, str] | None = None,
    cancel: threading.Event | None = None,
    network: bool = False,
) -> RunOutcome:
    """Run ``argv`` confined, with ``workdir`` as its working directory, HOME and TMPDIR.

    The environment is only PATH=/usr/bin:/bin, HOME, TMPDIR, LANG=C.UTF-8 and what ``env`` adds
    (e.g. LD_LIBRARY_PATH for a GPU runtime): the server's environment may hold tokens and must not
    steer the program. When the server runs as root, ``workdir`` is handed to uid 65534, which the
    program runs as; it and the program must then be reachable by that user, as a
    :func:`fresh_workdir` is. ``network`` lets a program that needs it (a remote runner command)
    keep the host's network; every other isolation still applies. Raises :class:`SandboxError`
    when the sandbox, not the program, failed.
    """
    namespaces = "require" if isolation().pid_namespace else "skip"
    result, _, end = _launch(argv, workdir, limits, stdin, env, cancel, namespaces=namespaces, network=network)
    if end is not None:
        wait_status: int = end["waitStatus"]
        exit_code = os.WEXITSTATUS(wait_status) if os.WIFEXITED(wait_status) else None
        sig = os.WTERMSIG(wait_status) if os.WIFSIGNALED(wait_status) else None
    else:
        # Stopped before the program ended: the launcher's own end is all there is.
        exit_code = result.returncode if result.returncode >= 0 else None
        sig = -result.returncode if result.returncode < 0 else None
    return RunOutcome(
        exit_code=exit_code,
        signal=sig,
        stdout=result.stdout,
        stderr=result.stderr,
        duration=result.duration,
        timed_out=result.timed_out,
        cancelled=result.cancelled,
        limit=_limit_hit(result, end, sig, limits),
        truncated=result.truncated,
        limits=limits,
    )


def _limit_hit(result: proc.ProcResult, end: dict[str, Any] | None, sig: int | None, limits: Limits) -> str | None:
    if result.truncated:
        return "output"
    if end is None or result.timed_out or result.cancelled:
        return None
    if sig == signal.SIGXCPU or (sig == signal.SIGKILL and end["cpuSeconds"] >= limits.cpu_seconds):
        return "cpu time"
    if sig == signal.SIGXFSZ:
        return "file size"
    if sig is None and end["waitStatus"] == 0:
        return None
    if limits.memory_mb > 0 and end["maxRssKb"] * 1024 >= _MEMORY_BLAME * limits.memory_mb * (1 << 20):
        return "memory"
    stderr = result.stderr.decode("utf-8", "replace")
    for limit, texts in _ERRNO_TEXT.items():
        if any(text in stderr for text in texts):
            return limit
    return None


def _launch(
    argv: Sequence[str | os.PathLike[str]],
    workdir: Path,
    limits: Limits,
    stdin: bytes | None,
    env: Mapping[str, str] | None,
    cancel: threading.Event | None,
    *,
    namespaces: str,
    network: bool,
) -> tuple[proc.ProcResult, dict[str, Any] | None, dict[str, Any] | None]:
    """Run ``argv`` through the launcher; returns the run, the isolation it applied, and how the
    program ended (each None when the run was stopped before the launcher could tell)."""
    if isinstance(argv, str | bytes):
        raise TypeError("argv must be a list of arguments, not a string")
    program = [os.fspath(a) for a in argv]
    if os.geteuid() == 0:
        os.chown(workdir, NOBODY, NOBODY)
    read_end, write_end = os.pipe()
    try:
        plan = {
            "statusFd": write_end,
            "namespaces": namespaces,
            "network": network,
            "limits": msgspec.to_builtins(limits),
        }
        scrubbed = {"PATH": "/usr/bin:/bin", "HOME": str(workdir), "TMPDIR": str(workdir), "LANG": "C.UTF-8"}
        result = proc.run(
            [sys.executable, "-I", "-S", str(_LAUNCHER), json.dumps(plan), "--", *program],
            timeout=limits.timeout_seconds,
            cwd=workdir,
            env={**scrubbed, **(env or {})},
            input=stdin,
            cancel=cancel,
            output_limit=limits.output_bytes,
            pass_fds=(write_end,),
        )
        os.close(write_end)
        write_end = -1
        lines = _read_status(read_end)
    finally:
        for fd in (read_end, write_end):
            if fd >= 0:
                os.close(fd)
    if lines and "error" in lines[0]:
        raise SandboxError(lines[0]["error"])
    if not lines and not (result.timed_out or result.cancelled or result.truncated):
        raise SandboxError(f"sandbox launcher failed: {result.text()[-2000:]}")
    return result, lines[0] if lines else None, lines[1] if len(lines) > 1 else None


def _read_status(fd: int) -> list[dict[str, Any]]:
    """The launcher's JSON lines. Read without blocking: a killed launcher's init may not have
    closed its end yet, and what it had not written by now is not wanted."""
    os.set_blocking(fd, False)
    data = b""
    with contextlib.suppress(BlockingIOError):
        while chunk := os.read(fd, 1 << 16):
            data += chunk
    return [json.loads(line) for line in data.splitlines() if line.endswith(b"}")]
