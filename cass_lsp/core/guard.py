"""The launcher every outside program starts through: ``python -I -S guard.py SPEC -- PROGRAM ARGS...``.

:func:`cass_lsp.core.proc.run` starts it as a fresh, single-threaded interpreter (the server is
multi-threaded, and Python documents ``preexec_fn`` as unsafe there), so that

* the program's bounds (address space, CPU seconds, no core files) and CPU priority are set in the
  forked child before exec, and are inherited by everything it starts (nvcc → cicc, ptxas, the
  host compiler's cc1plus; clang → its cc1, lld);
* nothing the program starts outlives the server. ``PR_SET_PDEATHSIG`` is not inherited across
  fork, so it alone would end the program but not its helpers. Instead the launcher is a child
  subreaper (an orphaned helper, even one that ``setsid()``, is reparented to it rather than to the
  system's init), and its parent-death signal is SIGTERM, on which it kills every descendant
  before it leaves. The signal fires when the *thread* that started the launcher ends; that thread
  is the one blocked in ``proc.run`` until the launcher has exited, so it ends before the run only
  when the whole server does. SIGTERM from ``proc.run`` (a timeout, a cancel) does the same.

SPEC is a JSON object: ``parent`` (the server's pid, to notice a server that died before the
signal was armed), ``status`` (the write end of a pipe, closed by the program's exec: a number
written on it is the errno of a failed exec, which ``proc.run`` raises as ``Popen`` would),
``nice`` (the priority to run at, or null), ``memoryBytes`` and ``cpuSeconds`` (null: unbounded).

``-I -S`` keep the environment and any site-packages from deciding what the launcher imports; the
package itself is then unimportable, so this file uses the standard library and its sibling
:mod:`.reaper` (loaded from this folder) only.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import signal
import sys
from typing import Any, NoReturn

try:
    from cass_lsp.core.reaper import PR_SET_CHILD_SUBREAPER, PR_SET_PDEATHSIG, kill_descendants, prctl
except ImportError:  # run as the launcher: -I leaves this folder off sys.path; appended, the stdlib still wins
    sys.path.append(os.path.dirname(os.path.abspath(__file__)))
    from reaper import PR_SET_CHILD_SUBREAPER, PR_SET_PDEATHSIG, kill_descendants, prctl  # type: ignore[no-redef]

# The exit status of a program that could not be executed (the shell's).
COULD_NOT_RUN = 127

def _die_like(wait_status: int) -> NoReturn:
    """Leave as the program did: the same exit code, or death by the same signal (what
    ``proc.run`` reports as a negative return code)."""
    if os.WIFSIGNALED(wait_status):
        sig = os.WTERMSIG(wait_status)
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # the program's SIGSEGV is not ours to dump
        signal.signal(sig, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {sig})
        os.kill(os.getpid(), sig)
        os._exit(128 + sig)  # a signal whose default is not to end a process
    os._exit(os.waitstatus_to_exitcode(wait_status))


def _on_stop(signum: int, frame: object) -> None:
    kill_descendants()
    _die_like(signum)  # a wait status of "killed by signum" is signum itself


def _bound(limit: int, value: int | None, hard_extra: int = 0) -> None:
    """Lower ``limit`` to ``value`` (never above the hard limit already in force)."""
    if value is None:
        return
    _, hard = resource.getrlimit(limit)
    soft = value if hard == resource.RLIM_INFINITY else min(value, hard)
    top = soft + hard_extra if hard == resource.RLIM_INFINITY else min(soft + hard_extra, hard)
    resource.setrlimit(limit, (soft, top))


def _exec(spec: dict[str, Any], program: list[str], status_fd: int) -> NoReturn:
    """In the forked child: take the bounds, become the program, or say why it could not."""
    try:
        # Python ignores these and an ignored signal survives exec; compilers expect the defaults.
        for sig in (signal.SIGPIPE, signal.SIGXFSZ, signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
            signal.signal(sig, signal.SIG_DFL)
        _bound(resource.RLIMIT_AS, spec["memoryBytes"])
        # The hard limit a second later turns an ignored SIGXCPU into SIGKILL.
        _bound(resource.RLIMIT_CPU, spec["cpuSeconds"], hard_extra=1)
        if spec["memoryBytes"] is not None:
            # a compiler that aborts at its bound would otherwise write a core file of that size
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        # Kept across exec: should the launcher itself be killed, the program goes with it.
        prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        os.execvp(program[0], program)
    except OSError as e:
        with contextlib.suppress(OSError):
            os.write(status_fd, str(e.errno or 0).encode())
    finally:
        os._exit(COULD_NOT_RUN)


def main(argv: list[str]) -> NoReturn:
    spec = json.loads(argv[1])
    program = argv[3:]
    status_fd: int = spec["status"]
    os.set_inheritable(status_fd, False)  # the program's exec closes it: that is the "started" signal
    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(sig, _on_stop)
    prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    if os.getppid() != spec["parent"]:
        os._exit(COULD_NOT_RUN)  # the server died before the signal was armed: start nothing
    prctl(PR_SET_CHILD_SUBREAPER, 1)
    if spec["nice"] is not None:
        os.setpriority(os.PRIO_PROCESS, 0, spec["nice"])
    pid = os.fork()
    if pid == 0:
        _exec(spec, program, status_fd)
    # The status pipe and the caller's passed descriptors are the program's now: a copy kept here
    # would hold their other ends open after the program closed them.
    os.closerange(3, os.sysconf("SC_OPEN_MAX"))
    while True:
        reaped, wait_status = os.waitpid(-1, 0)
        if reaped == pid:
            break
    # Helpers the program left running would outlive it: end them.
    kill_descendants()
    _die_like(wait_status)


if __name__ == "__main__":
    main(sys.argv)
