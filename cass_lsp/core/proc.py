"""The one way this project runs an outside program.

Every engine (compilers, disassemblers, pip, runners) goes through :func:`run`:
an argv list (never a shell), a timeout, its own process group, and the whole group killed when the
timeout passes or the caller cancels, so a compiler that forks helpers (nvcc → cicc → ptxas, clang →
lld) never leaves an orphan behind. Each program starts through :mod:`cass_lsp.core.guard`, which gives
it its :class:`Limits` and kills everything it started when the server dies, even by SIGKILL.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO

import msgspec

# How long a process group gets between SIGTERM and SIGKILL.
TERM_GRACE_S = 0.5
# Poll period while waiting on a cancellable run; only paid when a cancel event is given.
_CANCEL_POLL_S = 0.05
# Read/write chunk for the pipes.
_CHUNK = 1 << 16
_GUARD = Path(__file__).with_name("guard.py")
# What compilers print when an allocation fails (cc1plus, cicc and ptxas, clang's LLVM, libstdc++),
# and the dynamic loader when a bound leaves no room to map a tool's libraries (clang's libLLVM).
_OUT_OF_MEMORY = re.compile(
    r"out of memory|memory exhausted|cannot allocate memory|bad_alloc|allocation failed|failed to map segment",
    re.IGNORECASE,
)
# What a compiler driver prints when one of its tools died by SIGXCPU (gcc and clang drivers, nvcc).
_OUT_OF_CPU = re.compile(r"CPU time limit exceeded|signal 24\b|SIGXCPU", re.IGNORECASE)


class Limits(msgspec.Struct, frozen=True):
    """Bounds on every process of one run, set before exec and inherited by what it starts: its
    address space and its CPU time, each process on its own. The wall clock is ``run``'s timeout."""

    memory_mb: int
    cpu_seconds: int
    setting: str = ""
    """The settings these come from (``cass.compilerLimits``), named when a bound stops a run."""

    def hit(self, result: ProcResult) -> str | None:
        """Why ``result`` ended, when one of these bounds ended it: a sentence naming the setting."""
        if result.ok or result.timed_out or result.cancelled:
            return None
        text = result.text()
        if _OUT_OF_CPU.search(text) or result.returncode == -signal.SIGXCPU:
            return f"stopped after {self.cpu_seconds} s of CPU time, its bound ({self.setting}.cpuSeconds)"
        if _OUT_OF_MEMORY.search(text):
            return f"ran out of memory at its bound of {self.memory_mb} MB ({self.setting}.memoryMb)"
        return None


class ProcResult(msgspec.Struct, frozen=True, rename="camel"):
    returncode: int
    stdout: bytes
    stderr: bytes
    duration: float
    timed_out: bool = False
    cancelled: bool = False
    # A stream passed ``output_limit``: the group was stopped and each stream holds at most the limit.
    truncated: bool = False

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and not self.timed_out and not self.cancelled and not self.truncated

    def text(self) -> str:
        """stdout and stderr decoded for messages (compilers may print non-UTF-8 paths)."""
        return (self.stdout + self.stderr).decode("utf-8", "replace")


def _signal_group(pgid: int, sig: signal.Signals) -> bool:
    """Send ``sig`` to the group; False when no member is left."""
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        return False
    return True


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except (ProcessLookupError, PermissionError):
        return False
    return True


def _reap_group(leader: subprocess.Popen[bytes]) -> None:
    """SIGTERM the leader's group, give it TERM_GRACE_S to exit, then SIGKILL whatever is left.

    Members that are not our children (grandchildren) are reaped by init, so liveness is
    checked with signal 0 rather than waitpid. The leader is ours to reap: until it is, its
    zombie still counts as a member and the group would look alive for the whole grace period.
    """
    pgid = leader.pid
    if not _signal_group(pgid, signal.SIGTERM):
        return
    deadline = time.monotonic() + TERM_GRACE_S
    while time.monotonic() < deadline:
        leader.poll()
        if not _group_alive(pgid):
            return
        time.sleep(0.01)
    _signal_group(pgid, signal.SIGKILL)


def _argv(argv: Sequence[str | os.PathLike[str]]) -> list[str]:
    if isinstance(argv, str | bytes):
        raise TypeError("argv must be a list of arguments, not a string")
    return [os.fspath(a) for a in argv]


def run(
    argv: Sequence[str | os.PathLike[str]],
    *,
    timeout: float,
    cwd: str | Path | None = None,
    env: Mapping[str, str] | None = None,
    input: bytes | None = None,
    cancel: threading.Event | None = None,
    nice: int = 0,
    output_limit: int | None = None,
    pass_fds: Sequence[int] = (),
    limits: Limits | None = None,
) -> ProcResult:
    """Run ``argv`` to completion or until ``timeout`` seconds (or ``cancel`` is set).

    Output is captured. On timeout or cancellation the whole process group is terminated and the
    result says so; on a normal exit any member still running in the group is killed too.
    ``nice`` lowers the program's CPU priority (its helpers inherit it): background compiles on a
    small machine must not take the cores the language server needs to answer the editor.
    ``output_limit`` bounds what is kept of each stream: an untrusted program printing without end
    must not grow the server's memory, so passing it stops the group and marks the result truncated.
    ``pass_fds`` stay open in the child (a side channel such as the sandbox launcher's status pipe).
    ``limits`` bound each of its processes (:meth:`Limits.hit` says when one ended it). Whatever
    the program started is killed when it ends and when the server dies. A program that cannot be
    executed raises OSError, as ``subprocess.Popen`` does.
    """
    start = time.monotonic()
    args = _argv(argv)
    if cancel is not None and cancel.is_set():
        return ProcResult(returncode=-signal.SIGTERM, stdout=b"", stderr=b"", duration=0.0, cancelled=True)
    child_env, scratch = _private_tmpdir(env)
    try:
        return _run(args, timeout, cwd, child_env, input, cancel, nice, output_limit, pass_fds, limits, start)
    finally:
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)


def _private_tmpdir(env: Mapping[str, str] | None) -> tuple[dict[str, str] | None, str | None]:
    """The child's environment with TMPDIR set to a fresh folder of its own, removed after the run.

    A program that is killed (a superseded compile, a timeout) cannot delete its temp files: nvcc
    leaves its ``tmpxft_*`` intermediates, clang its ``/tmp/*.o``. In a folder of the run's own they
    go with it. A caller that chose a TMPDIR (the sandbox's fresh workdir) keeps its choice."""
    inherited = os.environ.get("TMPDIR")
    if env is not None and env.get("TMPDIR") != inherited:
        return dict(env), None
    try:
        scratch = tempfile.mkdtemp(prefix="cass-proc-")
    except OSError:  # a full or read-only temp folder: the program may still run without one
        return (dict(env) if env is not None else None), None
    child_env = dict(env if env is not None else os.environ)
    child_env.update(TMPDIR=scratch, TMP=scratch, TEMP=scratch)
    return child_env, scratch


def _run(
    args: list[str],
    timeout: float,
    cwd: str | Path | None,
    env: dict[str, str] | None,
    input: bytes | None,
    cancel: threading.Event | None,
    nice: int,
    output_limit: int | None,
    pass_fds: Sequence[int],
    limits: Limits | None,
    start: float,
) -> ProcResult:
    status_read, status_write = os.pipe()
    spec = {
        "parent": os.getpid(),
        "status": status_write,
        "nice": min(19, os.getpriority(os.PRIO_PROCESS, 0) + nice) if nice else None,
        "memoryBytes": limits.memory_mb << 20 if limits is not None else None,
        "cpuSeconds": limits.cpu_seconds if limits is not None else None,
    }
    try:
        proc = subprocess.Popen(
            [sys.executable, "-I", "-S", str(_GUARD), msgspec.json.encode(spec).decode(), "--", *args],
            stdin=subprocess.PIPE if input is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
            env=env,
            start_new_session=True,
            pass_fds=(*pass_fds, status_write),
        )
    except BaseException:
        os.close(status_read)
        raise
    finally:
        os.close(status_write)
    try:
        failed_exec = _exec_error(status_read)
    finally:
        os.close(status_read)
    if failed_exec is not None:
        for pipe in (proc.stdin, proc.stdout, proc.stderr):
            if pipe is not None:
                pipe.close()
        proc.wait()
        raise OSError(failed_exec, os.strerror(failed_exec), args[0])
    pgid = proc.pid
    pump = _Pump(proc, input, output_limit)
    stop: str | None = "error"  # an exception in the pump must still stop the group
    try:
        stop = pump.run(start + timeout, cancel)
    finally:
        if stop is not None or proc.returncode is None:
            _reap_group(proc)
            pump.drain()
        else:
            # Helpers the program left running in its group would outlive it: end them.
            _signal_group(pgid, signal.SIGKILL)
    return ProcResult(
        returncode=proc.returncode if proc.returncode is not None else -signal.SIGKILL,
        stdout=pump.output(proc.stdout),
        stderr=pump.output(proc.stderr),
        duration=time.monotonic() - start,
        timed_out=stop == "timeout",
        cancelled=stop == "cancelled",
        truncated=pump.truncated,
    )


def _exec_error(status: int) -> int | None:
    """The errno of a program the guard could not execute; None once it runs (its exec closed the
    pipe with nothing written) or when the guard itself failed (its output says why)."""
    chunks = []
    while chunk := os.read(status, 64):
        chunks.append(chunk)
    text = b"".join(chunks).decode(errors="replace")
    return (int(text) or errno.EIO) if text.isdigit() else None


class _Pump:
    """Feeds stdin and collects stdout/stderr of one process without blocking on any pipe.

    Written out instead of ``Popen.communicate`` because communicate keeps everything a program
    prints, and the pump must both stop at ``limit`` bytes per stream and notice a cancel promptly.
    """

    def __init__(self, proc: subprocess.Popen[bytes], input: bytes | None, limit: int | None) -> None:
        self._proc = proc
        self._limit = limit
        # poll(), as subprocess uses: unlike epoll it holds no file descriptor that would need closing.
        self._sel = selectors.PollSelector()
        self._kept: dict[IO[bytes], list[bytes]] = {}
        self._sizes: dict[IO[bytes], int] = {}
        self._input = memoryview(input or b"")
        self.truncated = False
        for pipe in (proc.stdout, proc.stderr):
            if pipe is not None:
                self._kept[pipe] = []
                self._sizes[pipe] = 0
                self._sel.register(pipe, selectors.EVENT_READ)
        if proc.stdin is not None:
            if self._input:
                os.set_blocking(proc.stdin.fileno(), False)
                self._sel.register(proc.stdin, selectors.EVENT_WRITE)
            else:
                proc.stdin.close()

    def run(self, deadline: float, cancel: threading.Event | None) -> str | None:
        """Pump until the pipes close and the process exits; else why it must be stopped:
        "timeout", "cancelled" or "output" (a stream passed the limit)."""
        while True:
            if cancel is not None and cancel.is_set():
                return "cancelled"
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return "timeout"
            wait = min(remaining, _CANCEL_POLL_S) if cancel is not None else remaining
            if not self._sel.get_map():
                # The program closed its pipes but may still be running.
                with contextlib.suppress(subprocess.TimeoutExpired):
                    self._proc.wait(timeout=wait)
                    return None
                continue
            for key, _ in self._sel.select(wait):
                pipe: IO[bytes] = key.fileobj  # type: ignore[assignment]
                if pipe is self._proc.stdin:
                    self._write(pipe)
                elif self._read(pipe) and self._limit is not None:
                    return "output"

    def drain(self) -> None:
        """Collect what a stopped group still wrote; give up on pipes held by a process that left the group."""
        deadline = time.monotonic() + TERM_GRACE_S * 2
        while self._sel.get_map() and (remaining := deadline - time.monotonic()) > 0:
            for key, _ in self._sel.select(remaining):
                pipe: IO[bytes] = key.fileobj  # type: ignore[assignment]
                if pipe is self._proc.stdin:
                    self._close(pipe)
                else:
                    self._read(pipe)
        for key in list(self._sel.get_map().values()):
            self._close(key.fileobj)  # type: ignore[arg-type]
        self._proc.wait()

    def output(self, pipe: IO[bytes] | None) -> bytes:
        return b"".join(self._kept[pipe]) if pipe is not None else b""

    def _read(self, pipe: IO[bytes]) -> bool:
        """Read one chunk; True when the stream passed the limit (the excess is dropped)."""
        data = os.read(pipe.fileno(), _CHUNK)
        if not data:
            self._close(pipe)
            return False
        room = len(data) if self._limit is None else max(0, self._limit - self._sizes[pipe])
        if room:
            self._kept[pipe].append(data[:room])
            self._sizes[pipe] += min(room, len(data))
        if room < len(data):
            self.truncated = True
            return True
        return False

    def _write(self, pipe: IO[bytes]) -> None:
        try:
            written = os.write(pipe.fileno(), self._input[:_CHUNK])
        except BlockingIOError:
            return
        except BrokenPipeError:
            # The program stopped reading; what it did not take is dropped, as communicate does.
            written = len(self._input)
        self._input = self._input[written:]
        if not self._input:
            self._close(pipe)

    def _close(self, pipe: IO[bytes]) -> None:
        self._sel.unregister(pipe)
        pipe.close()
