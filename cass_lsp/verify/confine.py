"""Launcher that confines one untrusted program: ``python -I -S confine.py PLAN -- PROGRAM ARGS...``.

The confinement (privilege drop, namespaces, rlimits) has to happen in the child between fork and
exec. The server is multi-threaded and Python documents ``preexec_fn`` as unsafe there, so it
starts this fresh, single-threaded interpreter instead (about 35 ms per run, measured). ``-I -S``
keep the scrubbed environment and any site-packages from deciding what the launcher imports; that
leaves the package itself unimportable, hence a file path and the standard library only.

PLAN is a JSON object written by :mod:`cass_lsp.verify.sandbox`: the limits, the number of the
status pipe, whether to create namespaces ("try", "require" or "skip") and whether the program may
use the network. The launcher writes two JSON lines to the status pipe: what isolation it applied,
then how the program ended (raw wait status, CPU seconds, peak RSS). When PLAN requires namespaces
that cannot be had, the one line is an ``error`` and the program is not run.

Process tree with namespaces: launcher (outer PID namespace) → init (PID 1 of a new namespace) →
program. The init reaps orphans and leaves as soon as the program ends; the kernel then kills
everything left in the namespace, setsid() daemons included. The program is not PID 1 itself
because the kernel shields a namespace's init from signals it has no handler for: SIGABRT,
SIGXCPU and SIGXFSZ would not end it, and its deaths would be misreported.

Without namespaces the launcher itself is a child subreaper: descendants that setsid() and
double-fork are reparented to it rather than to the system init, so it can still kill them when
the program ends or the run is stopped with SIGTERM.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import glob
import json
import os
import resource
import signal
import sys
from typing import Any, NoReturn

CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000
PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4
PR_SET_CHILD_SUBREAPER = 36
PR_SET_NO_NEW_PRIVS = 38
# uid/gid "nobody": root is exempt from RLIMIT_NPROC, so a fork bomb is only capped once the program
# runs as someone else.
NOBODY = 65534
# Device nodes a GPU program must still open after root is dropped (group-accessible on most hosts).
GPU_DEVICES = ("/dev/kfd", "/dev/dri/renderD*", "/dev/nvidia*")
# Processes in the new user namespace besides the program's own: the launcher and the init.
NS_OVERHEAD = 2

_libc = ctypes.CDLL(None, use_errno=True)


def _prctl(option: int, value: int) -> None:
    if _libc.prctl(option, ctypes.c_ulong(value), 0, 0, 0) != 0:
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err))


def _status(fd: int, **fields: Any) -> None:
    # One write per line: well under PIPE_BUF, so it cannot interleave or block.
    os.write(fd, json.dumps(fields).encode() + b"\n")


def _gpu_groups() -> list[int]:
    groups = set()
    for pattern in GPU_DEVICES:
        for node in glob.glob(pattern):
            st = os.stat(node)
            # Group 0 is never handed out: it opens far more than a GPU.
            if st.st_gid != 0 and st.st_mode & 0o060:
                groups.add(st.st_gid)
    return sorted(groups)


def _drop_root() -> str:
    """Become nobody, keeping only the groups that open GPU devices; returns a note for the report."""
    groups = _gpu_groups()
    os.setgroups(groups)
    os.setgid(NOBODY)
    os.setuid(NOBODY)
    return f"runs as uid {NOBODY}" + (f" with GPU groups {groups}" if groups else "")


def _unshare(network: bool) -> None:
    """New user and PID namespaces, and a network one unless the program may use the network; the
    user namespace maps only our own ids, so the program keeps its uid (and no capability) inside
    and is an ordinary user towards files."""
    uid, gid = os.getuid(), os.getgid()
    # Changing uid made us non-dumpable, which hands /proc/self to root: we could not write our maps.
    _prctl(PR_SET_DUMPABLE, 1)
    if _libc.unshare(CLONE_NEWUSER | CLONE_NEWPID | (0 if network else CLONE_NEWNET)) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"unshare: {os.strerror(err)}")
    for name, text in (("setgroups", "deny"), ("uid_map", f"{uid} {uid} 1"), ("gid_map", f"{gid} {gid} 1")):
        with open(f"/proc/self/{name}", "w") as f:
            f.write(text)


def _threads_of(uid: int) -> int:
    """Tasks (threads count against RLIMIT_NPROC) the kernel already charges to ``uid``."""
    total = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/status") as f:
                fields = dict(line.split(":", 1) for line in f if ":" in line)
        except OSError:
            continue
        if int(fields.get("Uid", "-1").split()[0]) == uid:
            total += int(fields.get("Threads", "1"))
    return total


def _exec(program: list[str], limits: dict[str, int], nproc: int | None) -> NoReturn:
    """In the forked program process: apply the limits and become the program."""
    try:
        # Python (or the launcher) ignores these and ignored signals survive exec; a C program
        # expects the defaults.
        for sig in (signal.SIGPIPE, signal.SIGXFSZ, signal.SIGTERM):
            signal.signal(sig, signal.SIG_DFL)
        mb = 1 << 20
        cpu = limits["cpuSeconds"]
        # The hard limit one second later turns an ignored SIGXCPU into SIGKILL.
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
        if limits["memoryMb"] > 0:
            resource.setrlimit(resource.RLIMIT_AS, (limits["memoryMb"] * mb,) * 2)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limits["fileSizeMb"] * mb,) * 2)
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if nproc is not None:
            resource.setrlimit(resource.RLIMIT_NPROC, (nproc, nproc))
        # setuid binaries (su, sudo, ping) must not hand back what was dropped.
        _prctl(PR_SET_NO_NEW_PRIVS, 1)
        os.execvp(program[0], program)
    except OSError as e:
        os.write(2, f"cass-sandbox: cannot run {program[0]!r}: {e.strerror}\n".encode())
        os._exit(127 if e.errno == errno.ENOENT else 126)


def _children(parent: int) -> list[int]:
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


def _kill_descendants() -> None:
    """Kill every process reparented to this subreaper until none is left; killing a parent hands
    its children to us, so repeat until wait() says there are no children at all."""
    me = os.getpid()
    while True:
        for pid in _children(me):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            return


def _supervise(program: list[str], limits: dict[str, int], nproc: int | None, status_fd: int) -> int:
    """Fork the program, reap every child until it ends, report its end; returns an exit code that
    mirrors it (128+N for signal N, as shells do)."""
    pid = os.fork()
    if pid == 0:
        _exec(program, limits, nproc)
    while True:
        reaped, wait_status, usage = os.wait4(-1, 0)
        if reaped == pid:
            break
    _status(
        status_fd,
        waitStatus=wait_status,
        cpuSeconds=usage.ru_utime + usage.ru_stime,
        maxRssKb=usage.ru_maxrss,
    )
    if os.WIFSIGNALED(wait_status):
        return 128 + os.WTERMSIG(wait_status)
    return os.waitstatus_to_exitcode(wait_status)


def _on_term(signum: int, frame: object) -> None:
    _kill_descendants()
    os._exit(128 + signum)


def main(argv: list[str]) -> int:
    plan = json.loads(argv[1])
    program = argv[3:]
    status_fd: int = plan["statusFd"]
    limits: dict[str, int] = plan["limits"]
    # Forked helpers keep it; the program's exec closes it.
    os.set_inheritable(status_fd, False)
    notes = []
    as_root = os.geteuid() == 0
    if as_root:
        try:
            notes.append(_drop_root())
            as_root = False
        except OSError as e:
            notes.append(f"runs as root ({e.strerror}): no process cap")
    namespaces = False
    if plan["namespaces"] != "skip":
        try:
            _unshare(plan["network"])
            namespaces = True
        except OSError as e:
            if plan["namespaces"] == "require":
                _status(status_fd, error=f"namespaces no longer available: {e}")
                return 125
            notes.append(f"no namespaces ({e}): network reachable, setsid() children caught by a subreaper")
    nproc: int | None
    if as_root:
        nproc = None  # root is exempt from RLIMIT_NPROC
    elif namespaces:
        # The new user namespace starts its own count: only the launcher and the init are in it.
        nproc = NS_OVERHEAD + limits["processes"]
    else:
        # The kernel counts every task of this uid, not just ours: set the cap relative to it.
        nproc = _threads_of(os.getuid()) + limits["processes"]
    if namespaces:
        notes.insert(0, "user and PID namespaces" if plan["network"] else "user, network and PID namespaces")
    _status(status_fd, namespaces=namespaces, processCap=nproc is not None, note="; ".join(notes))
    # The program runs as our uid and could ptrace this launcher (and the init), which stand outside
    # its confinement; only CAP_SYS_PTRACE may trace a non-dumpable process. The forks inherit it,
    # the program's exec resets it.
    _prctl(PR_SET_DUMPABLE, 0)
    # If the server dies the run must die with it (set late: credential changes clear it).
    _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if not namespaces:
        _prctl(PR_SET_CHILD_SUBREAPER, 1)
        signal.signal(signal.SIGTERM, _on_term)
        code = _supervise(program, limits, nproc, status_fd)
        _kill_descendants()
        return code
    # The group-wide SIGTERM of a stopped run ends the program, then the init; the launcher stays to
    # reap the init, whose zombie would otherwise keep the group looking alive (a container's PID 1
    # may be slow to reap) until the server's SIGKILL grace runs out.
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    init = os.fork()
    if init == 0:
        _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        # Leaving ends the namespace: the kernel kills whatever the program left behind.
        os._exit(_supervise(program, limits, nproc, status_fd))
    return os.waitstatus_to_exitcode(os.waitpid(init, 0)[1])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
