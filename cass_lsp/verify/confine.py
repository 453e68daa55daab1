"""Launcher that confines one untrusted program: ``python -I -S confine.py PLAN -- PROGRAM ARGS...``.

The confinement (privilege drop, namespaces, mounts, Landlock, seccomp, rlimits) has to happen in
the child between fork and exec. The server is multi-threaded and Python documents ``preexec_fn``
as unsafe there, so it starts this fresh, single-threaded interpreter instead (tens of ms per run,
measured by ``benchmarks/attack_lsp.py``). ``-I -S`` keep the scrubbed environment and any
site-packages from deciding what the launcher imports; that leaves the package itself
unimportable, hence a file path and the standard library only (the sibling modules
:mod:`.mounts`, :mod:`.landlock` and :mod:`.seccomp` are loaded from this folder, and
:mod:`cass_lsp.core.reaper`, which :mod:`cass_lsp.core.guard` shares, from the core folder).

PLAN is a JSON object written by :mod:`cass_lsp.verify.sandbox`: the level ("full", "landlock" or
"none"), the limits, the number of the status pipe, whether the program may use the network, the
work dir, the folders to hide, the users' home folders, the paths to keep visible and the
``cgroup.procs`` of the run's cgroup (:mod:`.cgroups`), which the launcher joins first. The launcher writes JSON lines to the
status pipe: what isolation it applied, then how the program ended (raw wait status, CPU seconds,
peak RSS). A line with an ``error`` means the sandbox, not the program, failed (a level that cannot
be had, any exception here): the program did not run or its end is unknown, and the launcher
exits 126.

Level "full", process tree: launcher (outer PID namespace) → init (PID 1 of a new namespace) →
program, in new user, mount, PID and (unless allowed) network namespaces, with the file-system
view of :mod:`.mounts`. The init mounts the fresh /proc, reaps orphans and leaves as soon as the
program ends; the kernel then kills everything left in the namespace, setsid() daemons included.
The program is not PID 1 itself because the kernel shields a namespace's init from signals it has
no handler for: SIGABRT, SIGXCPU and SIGXFSZ would not end it, and its deaths would be misreported.

Level "landlock" (and "none"): the launcher itself is a child subreaper, so descendants that
setsid() and double-fork are reparented to it rather than to the system init, and it kills them
when the program ends or the run is stopped with SIGTERM. Landlock's signal scope keeps the program
from killing the launcher (or the server) to escape that.

At every level the launcher joins a fresh, empty session keyring before the program starts (the
server's session keyring, and every key in it, is not the program's), and the program gets the
seccomp filter of :mod:`.seccomp`: no keyring calls, and no new sockets unless the network is allowed.
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
from collections.abc import Callable
from typing import Any, NoReturn

try:
    from cass_lsp.core.reaper import PR_SET_CHILD_SUBREAPER, PR_SET_PDEATHSIG, kill_descendants, prctl
    from cass_lsp.verify import landlock, mounts, seccomp
except ImportError:  # run as the launcher: -I leaves these folders off sys.path; appended, the stdlib still wins
    _here = os.path.dirname(os.path.abspath(__file__))
    sys.path += [_here, os.path.join(os.path.dirname(_here), "core")]
    import landlock  # type: ignore[no-redef]
    import mounts  # type: ignore[no-redef]
    import seccomp  # type: ignore[no-redef]
    from reaper import PR_SET_CHILD_SUBREAPER, PR_SET_PDEATHSIG, kill_descendants, prctl  # type: ignore[no-redef]

CLONE_NEWNS = 0x00020000
CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000
PR_SET_DUMPABLE = 4
PR_SET_NO_NEW_PRIVS = 38
KEYCTL_JOIN_SESSION_KEYRING = 1
# uid/gid "nobody": root is exempt from RLIMIT_NPROC, so a fork bomb is only capped once the program
# runs as someone else.
NOBODY = 65534
# Device nodes a GPU program must still open after root is dropped (group-accessible on most hosts).
GPU_DEVICES = ("/dev/kfd", "/dev/dri/renderD*", "/dev/nvidia*")
# What the "landlock" level lets a program read and execute: the system, not the users' files.
SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt", "/proc", "/sys")
# Device nodes it may open besides the GPU's.
PLAIN_DEVICES = ("/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom")
# Processes in the new user namespace besides the program's own: the launcher and the init.
NS_OVERHEAD = 2
# Exit status of a launcher that could not run the program (the shell's "cannot execute").
COULD_NOT_RUN = 126

_libc = ctypes.CDLL(None, use_errno=True)

def _status(fd: int, **fields: Any) -> None:
    # One write per line: well under PIPE_BUF, so it cannot interleave or block.
    os.write(fd, json.dumps(fields).encode() + b"\n")


def _failed(fd: int, error: BaseException) -> None:
    """Say on the status pipe that the sandbox failed; best effort, the exit status says it too."""
    with contextlib.suppress(OSError):
        _status(fd, error=f"sandbox launcher: {type(error).__name__}: {error}")


def _in_child(status_fd: int, body: Callable[[], int]) -> NoReturn:
    """Run ``body`` in a forked process and leave: an exception must never unwind into the
    parent's code, which this process is a copy of."""
    try:
        code = body()
    except BaseException as e:
        _failed(status_fd, e)
        code = COULD_NOT_RUN
    os._exit(code)


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
    """New user, mount and PID namespaces, and a network one unless the program may use the network;
    the user namespace maps only our own ids, so the program keeps its uid (and no capability once
    it has exec'd) inside and is an ordinary user towards files."""
    uid, gid = os.getuid(), os.getgid()
    # Changing uid made us non-dumpable, which hands /proc/self to root: we could not write our maps.
    prctl(PR_SET_DUMPABLE, 1)
    if _libc.unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | (0 if network else CLONE_NEWNET)) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"unshare: {os.strerror(err)}")
    for name, text in (("setgroups", "deny"), ("uid_map", f"{uid} {uid} 1"), ("gid_map", f"{gid} {gid} 1")):
        with open(f"/proc/self/{name}", "w") as f:
            f.write(text)


def _fresh_session_keyring() -> None:
    """Join a new anonymous session keyring: the one inherited from the server holds the user's
    keys, which the program would possess (and read, or add to) whatever its uid."""
    number = seccomp.abi().numbers["keyctl"]
    if _libc.syscall(number, KEYCTL_JOIN_SESSION_KEYRING, None) < 0:
        err = ctypes.get_errno()
        raise OSError(err, f"keyctl(JOIN_SESSION_KEYRING): {os.strerror(err)}")


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


def _landlock(plan: dict[str, Any]) -> None:
    devices = [*PLAIN_DEVICES, "/dev/dri", *(node for pattern in GPU_DEVICES for node in glob.glob(pattern))]
    read = [*SYSTEM_DIRS, *plan["keep"]]
    if plan["network"]:
        # The user's own remote command (ssh) reads its keys and configuration there.
        read += plan["homes"]
    landlock.restrict(read=read, write=[plan["workdir"]], devices=devices, network=plan["network"])


def _confine_program(plan: dict[str, Any], nproc: int | None) -> None:
    """In the forked program process, before exec: limits, then what the level applies."""
    # Python (or the launcher) ignores these and ignored signals survive exec; a C program
    # expects the defaults.
    for sig in (signal.SIGPIPE, signal.SIGXFSZ, signal.SIGTERM):
        signal.signal(sig, signal.SIG_DFL)
    limits: dict[str, int] = plan["limits"]
    mb = 1 << 20
    cpu = limits["cpuSeconds"]
    # The hard limit one second later turns an ignored SIGXCPU into SIGKILL.
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    if limits["memoryMb"] > 0:
        resource.setrlimit(resource.RLIMIT_AS, (limits["memoryMb"] * mb,) * 2)
    file_size = limits["fileSizeMb"]
    if plan["level"] != "full":
        # The disk limit is counted while the program writes (.diskquota): one file must not pass it
        # between two counts. At full the work dir's tmpfs bounds it.
        file_size = min(file_size, limits["diskMb"])
    resource.setrlimit(resource.RLIMIT_FSIZE, (file_size * mb,) * 2)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if nproc is not None:
        resource.setrlimit(resource.RLIMIT_NPROC, (nproc, nproc))
    # setuid binaries (su, sudo, ping) must not hand back what was dropped; Landlock and seccomp
    # need it from an unprivileged process.
    prctl(PR_SET_NO_NEW_PRIVS, 1)
    # Kept across exec: a launcher that dies takes the program along.
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if plan["level"] == "landlock":
        _landlock(plan)
    # fallocate takes any size at once, before a count can see it; refused (EOPNOTSUPP, on which
    # posix_fallocate writes the blocks instead), space is taken only as fast as it is written.
    seccomp.install(sockets=plan["network"], fallocate=plan["level"] == "full")


def _exec(plan: dict[str, Any], program: list[str], nproc: int | None, status_fd: int) -> NoReturn:
    """In the forked program process: confine it and become the program. A confinement that
    fails is the sandbox's failure (status line, 126); a program that cannot be executed is the
    shell's 127 or 126 with the reason on its stderr."""
    try:
        _confine_program(plan, nproc)
    except BaseException as e:
        _failed(status_fd, e)
        os._exit(COULD_NOT_RUN)
    try:
        os.execvp(program[0], program)
    except OSError as e:
        os.write(2, f"cass-sandbox: cannot run {program[0]!r}: {e.strerror}\n".encode())
        os._exit(127 if e.errno == errno.ENOENT else COULD_NOT_RUN)


def _supervise(plan: dict[str, Any], program: list[str], nproc: int | None, status_fd: int) -> int:
    """Fork the program, reap every child until it ends, report its end; returns an exit code that
    mirrors it (128+N for signal N, as shells do)."""
    pid = os.fork()
    if pid == 0:
        _exec(plan, program, nproc, status_fd)
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
    kill_descendants()
    os._exit(128 + signum)


def _process_cap(plan: dict[str, Any], as_root: bool) -> int | None:
    """RLIMIT_NPROC for the program, or None where the kernel would not enforce one."""
    processes: int = plan["limits"]["processes"]
    if as_root:
        return None  # root is exempt from RLIMIT_NPROC
    if plan["level"] == "full":
        # The new user namespace starts its own count: only the launcher and the init are in it.
        return NS_OVERHEAD + processes
    # The kernel counts every task of this uid, not just ours: set the cap relative to it.
    return _threads_of(os.getuid()) + processes


def _note(plan: dict[str, Any]) -> str:
    network = plan["network"]
    if plan["level"] == "full":
        spaces = "user, mount and PID namespaces" if network else "user, mount, network and PID namespaces"
        return f"{spaces}; read-only system, tmpfs over {', '.join(plan['hide'])}; fresh /proc"
    if plan["level"] == "landlock":
        return (
            "Landlock: reads only system folders, writes only the work dir"
            + ("" if network else ", no TCP")
            + "; signals scoped; setsid() children caught by a subreaper"
        )
    return "no file-system confinement: the program can read and write what its user can; setsid() children caught by a subreaper"


def _run(plan: dict[str, Any], program: list[str], status_fd: int) -> int:
    notes = []
    if plan["cgroupProcs"]:
        # First, before anything forks: every process of the run is born inside the run's cgroup,
        # whose memory limit counts them together.
        with open(plan["cgroupProcs"], "w") as procs:
            procs.write("0")
    as_root = os.geteuid() == 0
    if as_root:
        try:
            notes.append(_drop_root())
            as_root = False
        except OSError as e:
            notes.append(f"runs as root ({e.strerror}): no process cap")
    # After the drop, so that the keyring is nobody's; before the program exists.
    _fresh_session_keyring()
    level = plan["level"]
    if level == "full":
        _unshare(plan["network"])
        mounts.confine(
            plan["workdir"], plan["hide"], plan["keep"], plan["limits"]["fileSizeMb"], plan["limits"]["diskMb"]
        )
    elif level == "landlock":
        landlock.require()
    nproc = _process_cap(plan, as_root)
    notes.append("own session keyring, keyring calls refused" + ("" if plan["network"] else ", socket() refused"))
    _status(status_fd, level=level, processCap=nproc is not None, note="; ".join([_note(plan), *notes]))
    # The program runs as our uid and could ptrace this launcher (and the init), which stand outside
    # its confinement; only CAP_SYS_PTRACE may trace a non-dumpable process. The forks inherit it,
    # the program's exec resets it.
    prctl(PR_SET_DUMPABLE, 0)
    # If the server dies the run must die with it (set late: credential changes clear it).
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if level != "full":
        prctl(PR_SET_CHILD_SUBREAPER, 1)
        signal.signal(signal.SIGTERM, _on_term)
        code = _supervise(plan, program, nproc, status_fd)
        kill_descendants()
        return code
    # The group-wide SIGTERM of a stopped run ends the program, then the init; the launcher stays to
    # reap the init, whose zombie would otherwise keep the group looking alive (a container's PID 1
    # may be slow to reap) until the server's SIGKILL grace runs out.
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    init = os.fork()
    if init == 0:
        _in_child(status_fd, lambda: _init(plan, program, nproc, status_fd))
    return os.waitstatus_to_exitcode(os.waitpid(init, 0)[1])


def _init(plan: dict[str, Any], program: list[str], nproc: int | None, status_fd: int) -> int:
    """PID 1 of the new namespace. Leaving ends the namespace: the kernel kills whatever the
    program left behind."""
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    mounts.fresh_proc()
    return _supervise(plan, program, nproc, status_fd)


def main(argv: list[str]) -> int:
    plan = json.loads(argv[1])
    status_fd: int = plan["statusFd"]
    # Forked helpers keep it; the program's exec closes it.
    os.set_inheritable(status_fd, False)
    try:
        return _run(plan, argv[3:], status_fd)
    except Exception as e:  # whatever went wrong here is "could not run", never the program's exit
        _failed(status_fd, e)
        return COULD_NOT_RUN


if __name__ == "__main__":
    sys.exit(main(sys.argv))
