"""The one way this project runs an outside program.

Every engine (compilers, disassemblers, pip, runners) goes through :func:`run`:
an argv list (never a shell), a timeout, its own process group, and the whole group killed when the
timeout passes or the caller cancels, so a compiler that forks helpers (nvcc → cicc → ptxas, clang →
lld) never leaves an orphan behind.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

import msgspec

# How long a process group gets between SIGTERM and SIGKILL.
TERM_GRACE_S = 0.5
# Poll period while waiting on a cancellable run; only paid when a cancel event is given.
_CANCEL_POLL_S = 0.05


class ProcResult(msgspec.Struct, frozen=True, rename="camel"):
    returncode: int
    stdout: bytes
    stderr: bytes
    duration: float
    timed_out: bool = False
    cancelled: bool = False

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and not self.timed_out and not self.cancelled

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


def _reap_group(pgid: int) -> None:
    """SIGTERM the group, give it TERM_GRACE_S to exit, then SIGKILL whatever is left.

    Members that are not our children (grandchildren) are reaped by init, so liveness is
    checked with signal 0 rather than waitpid.
    """
    if not _signal_group(pgid, signal.SIGTERM):
        return
    deadline = time.monotonic() + TERM_GRACE_S
    while time.monotonic() < deadline:
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
) -> ProcResult:
    """Run ``argv`` to completion or until ``timeout`` seconds (or ``cancel`` is set).

    Output is captured. On timeout or cancellation the whole process group is terminated and the
    result says so; on a normal exit any member still running in the group is killed too.
    ``nice`` lowers the program's CPU priority (its helpers inherit it): background compiles on a
    small machine must not take the cores the language server needs to answer the editor.
    """
    start = time.monotonic()
    args = _argv(argv)
    if cancel is not None and cancel.is_set():
        return ProcResult(returncode=-signal.SIGTERM, stdout=b"", stderr=b"", duration=0.0, cancelled=True)
    proc = subprocess.Popen(
        args,
        stdin=subprocess.PIPE if input is not None else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=cwd,
        env=dict(env) if env is not None else None,
        start_new_session=True,
    )
    pgid = proc.pid
    if nice:
        with contextlib.suppress(OSError):
            os.setpriority(os.PRIO_PROCESS, proc.pid, min(19, os.getpriority(os.PRIO_PROCESS, 0) + nice))
    timed_out = cancelled = False
    out: bytes = b""
    err: bytes = b""
    try:
        if cancel is None:
            try:
                out, err = proc.communicate(input, timeout=timeout)
            except subprocess.TimeoutExpired:
                timed_out = True
        else:
            out, err, timed_out, cancelled = _communicate_cancellable(proc, input, timeout, cancel)
    finally:
        if timed_out or cancelled or proc.returncode is None:
            _reap_group(pgid)
            out2, err2 = _drain(proc)
            out, err = out + out2, err + err2
        else:
            # Helpers the program left running in its group would outlive it: end them.
            _signal_group(pgid, signal.SIGKILL)
    return ProcResult(
        returncode=proc.returncode if proc.returncode is not None else -signal.SIGKILL,
        stdout=out,
        stderr=err,
        duration=time.monotonic() - start,
        timed_out=timed_out,
        cancelled=cancelled,
    )


def _drain(proc: subprocess.Popen[bytes]) -> tuple[bytes, bytes]:
    """Collect what a killed group wrote; give up on pipes held by a process that left the group."""
    try:
        out, err = proc.communicate(timeout=TERM_GRACE_S * 2)
    except subprocess.TimeoutExpired:
        for pipe in (proc.stdout, proc.stderr):
            if pipe is not None:
                pipe.close()
        proc.wait()
        return b"", b""
    return out or b"", err or b""


def _communicate_cancellable(
    proc: subprocess.Popen[bytes], input: bytes | None, timeout: float, cancel: threading.Event
) -> tuple[bytes, bytes, bool, bool]:
    deadline = time.monotonic() + timeout
    first = True
    while True:
        if cancel.is_set():
            return b"", b"", False, True
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return b"", b"", True, False
        try:
            # communicate() keeps what it read across TimeoutExpired; input goes only once.
            out, err = proc.communicate(input if first else None, timeout=min(remaining, _CANCEL_POLL_S))
            return out, err, False, False
        except subprocess.TimeoutExpired:
            first = False
