"""What the two launchers (:mod:`cass_lsp.core.guard` under every ``proc.run``, and the sandbox's
:mod:`cass_lsp.verify.confine`) do as child subreapers: ``prctl`` and killing every process
reparented to them. The standard library only: both run as ``python -I -S FILE``, where the package
is not importable and this file is loaded from its folder."""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36

_libc = ctypes.CDLL(None, use_errno=True)


def prctl(option: int, value: int) -> None:
    if _libc.prctl(option, ctypes.c_ulong(value), 0, 0, 0) != 0:
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err))


def children(parent: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            if ppid == parent:
                found.append(int(entry))
    return found


def kill_descendants() -> None:
    """Kill every process reparented to this subreaper until none is left: killing a parent hands
    its children to us, so repeat until wait() says there are no children at all."""
    me = os.getpid()
    while True:
        for pid in children(me):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            return
