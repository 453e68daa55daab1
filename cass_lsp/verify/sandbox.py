"""Run an untrusted compiled program (a user's CUDA program or its HIP translation) safely.

Verification runs what the user's code compiled to, so everything here assumes the program is
hostile or simply broken: it may loop, fork without end, allocate without bound, fill the disk,
print forever or daemonize. Each run gets

* an argv list, never a shell, so file names with spaces, quotes, ``;`` or ``$()`` stay literal;
* a fresh working directory and a scrubbed environment (see :func:`fresh_workdir`, :func:`run`),
  removed afterwards whatever the program left there (:func:`remove_tree`);
* rlimits: CPU seconds, address space, file size, no core dumps, and a process cap where the
  kernel enforces one (root is exempt, so a root server drops the program to uid 65534);
* a memory limit for the whole run where a cgroup can be had (:mod:`.cgroups`; else RLIMIT_AS
  per process with a process cap of :data:`.cgroups.FALLBACK_PROCESSES`), and a disk limit for
  the whole run (the full level's tmpfs, else counted per write by :mod:`.diskquota`, which stops
  the run the moment it passes; RLIMIT_FSIZE is then at most the disk limit, and ``fallocate`` refused);
* its own process group, killed on timeout or cancel by :func:`cass_lsp.core.proc.run`, whose output
  capture is bounded so a chatty program cannot grow the server;
* a fresh session keyring, and a seccomp filter refusing the keyring calls and, unless the run is
  allowed the network, new sockets (:mod:`.seccomp`);
* one of three levels, said by :func:`isolation` (``cass-lsp doctor`` prints it):

  - ``full``: user, mount, PID and network namespaces; the system read-only, the work dir an
    overlay over a tmpfs of the disk limit (the host's folder is never written), empty tmpfs of the
    file size limit over the home folders, /tmp, /var/tmp, /run/user and /dev/shm, a fresh /proc
    where the server's processes do not exist; the kernel kills everything the program started
    when it ends, even children that setsid().
  - ``landlock``, where namespaces are refused (Docker's seccomp profile, Ubuntu 24.04's AppArmor):
    Landlock lets the program read only system folders and write only its work dir, refuses TCP,
    scopes signals (it cannot kill the launcher or the server) and ptrace-class access to other
    processes (``/proc/PID/mem``, ``environ``); the launcher is a subreaper that kills every
    descendant at the end.
  - ``none``: neither is available. Runs are refused (:class:`SandboxError` naming the user setting
    ``allowUnconfinedRuns`` in the user's ``settings.toml``) unless the caller passes ``allow_unconfined=True``.

``CASS_LSP_SANDBOX_LEVEL`` (``full``, ``landlock`` or ``none``) caps the level below what the OS
allows: tests and ``benchmarks/attack_lsp.py`` use it to exercise every level on one machine.

The confinement is applied by :mod:`cass_lsp.verify.confine`, a launcher run as a fresh
interpreter between the server and the program.
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import os
import pwd
import signal
import stat
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal, get_args

import msgspec

from cass_lsp.core import proc
from cass_lsp.verify import cgroups, diskquota
from cass_lsp.verify.confine import NOBODY

log = logging.getLogger(__name__)

_LAUNCHER = Path(__file__).with_name("confine.py")
Level = Literal["full", "landlock", "none"]
LEVELS: tuple[Level, ...] = get_args(Level)  # strongest first
LEVEL_ENV = "CASS_LSP_SANDBOX_LEVEL"
UNCONFINED_SETTING = "allowUnconfinedRuns"
"""The user-level setting (``settings.toml``, :mod:`cass_lsp.core.user_settings`) that allows unconfined runs."""
# Hidden from the program at the full level (tmpfs over them); the home folders only while it has
# no network: a run allowed the network is the user's own remote command (ssh), which reads its keys.
_ALWAYS_HIDDEN = ("/tmp", "/var/tmp", "/dev/shm")
_HOMES = ("/home", "/root", "/run/user")
# Fraction of the memory limit a program's peak RSS must reach before a crash is blamed on it.
_MEMORY_BLAME = 0.8
# What a C library prints (perror, strerror, std::bad_alloc) when a limit refused a request; the
# program may exit normally after printing it, so only an unsuccessful end is blamed on the limit.
_ERRNO_TEXT = {
    "processes": ("Resource temporarily unavailable",),
    "memory": ("Cannot allocate memory", "std::bad_alloc", "out of memory"),
    "file size": ("File too large",),
    "disk": ("No space left on device",),
}


def unconfined_hint() -> str:
    """Where a user allows unconfined runs (a file a workspace cannot write)."""
    from cass_lsp.core import user_settings

    return f"{UNCONFINED_SETTING} = true is in {user_settings.path()}"


class SandboxError(RuntimeError):
    """The sandbox itself failed or refused (the launcher crashed, a level probed earlier went
    away, no level confines runs here and they are not allowed unconfined); says nothing about the
    program, which did not run or whose end is unknown: the caller's verdict is "could not verify"."""


class Limits(msgspec.Struct, frozen=True, rename="camel"):
    timeout_seconds: float = 10.0  # wall clock
    cpu_seconds: int = 10
    # Address space; 0 for none, as GPU runtimes reserve far more address space than they use.
    memory_mb: int = 4096
    file_size_mb: int = 64
    # Everything the run writes, all files and folders together (see run()).
    disk_mb: int = 512
    processes: int = 64  # the program and everything it starts, threads included
    output_bytes: int = 4_000_000  # kept per stream; more stops the program


class Isolation(msgspec.Struct, frozen=True, rename="camel"):
    """What this OS allowed: see :func:`isolation`."""

    level: Level
    network: bool  # no network reachable, loopback included
    files: bool  # the file system is confined (only the work dir writable, the user's files unseen)
    pid_namespace: bool  # descendants die with the program's namespace, setsid() or not
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
    # "cpu time", "memory", "file size", "disk", "processes" or "output" when a limit stopped the program;
    # best effort from its signal, its peak memory and what it printed.
    limit: str | None = None
    truncated: bool = False
    # The limits it ran under, so that describe() can name the one that stopped it.
    limits: Limits = msgspec.field(default_factory=Limits)
    # Whether the memory limit bounded the whole run (a cgroup) rather than each process.
    memory_whole_run: bool = False
    # The most the work dir was seen to hold (landlock and none, see .diskquota); None at full,
    # whose tmpfs the kernel bounds and which goes with the run.
    disk_peak_bytes: int | None = None

    def describe(self) -> str:
        """One line for a diagnostic, e.g. "killed by SIGSEGV (segmentation fault)"."""
        if self.cancelled:
            return "cancelled"
        if self.timed_out:
            return f"timed out after {self.limits.timeout_seconds:g} s"
        if self.limit is not None:
            return f"stopped: {self.limit} limit ({_limit_value(self.limit, self.limits, self.memory_whole_run)})"
        if self.signal is not None:
            return f"killed by {_signal_name(self.signal)}"
        return f"exited {self.exit_code}"


def _limit_value(limit: str, limits: Limits, whole_run: bool) -> str:
    return {
        "cpu time": f"{limits.cpu_seconds} s",
        "memory": f"{limits.memory_mb} MB {'for the whole run' if whole_run else 'per process'}",
        "file size": f"{limits.file_size_mb} MB",
        "disk": f"{limits.disk_mb} MB",
        # Lowered to cgroups.FALLBACK_PROCESSES where no cgroup bounds the run's memory.
        "processes": f"{limits.processes}{'' if whole_run or not limits.memory_mb else ' without a memory cgroup'}",
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
    """A new temporary directory, removed afterwards by :func:`remove_tree` (whatever the program
    left in it; what could not be removed is logged, never raised).

    A server running as root runs the program as another user, who must reach the directory and the
    program inside it: it lies in the temp dir when everyone may traverse that dir's parents, and in
    ``/tmp`` when ``TMPDIR`` is private (a 0700 per-user temp dir).
    """
    path = Path(tempfile.mkdtemp(prefix=prefix, dir=_traversable_temp()))
    try:
        yield path
    finally:
        for problem in remove_tree(path):
            log.warning("work folder not fully removed: %s", problem)


def remove_tree(top: str | os.PathLike[str]) -> list[str]:
    """Remove ``top`` and everything below it; never raises, returns what stayed (one line each).

    Whatever the program left: any depth, folders it made unreadable or read-only, and file
    systems mounted below it, which are never entered (emptying one would delete what it holds, not
    the run's): see :func:`_walk`."""
    problems: list[str] = []

    def remove(parent: int, name: str, where: str) -> None:
        try:
            os.rmdir(name, dir_fd=parent)
        except OSError as e:
            problems.append(f"{where}: {e.strerror}")

    _walk(os.fspath(top), lambda fd, where: _empty_out(fd, where, problems), remove, problems, unlock=True)
    try:
        os.rmdir(top)
    except FileNotFoundError:
        pass
    except OSError as e:
        problems.append(f"{os.fspath(top)}: {e.strerror}")
    return problems


def disk_usage(top: str | os.PathLike[str]) -> int:
    """Bytes allocated below ``top`` (files and folders, at any depth, the way :func:`_walk` goes,
    folders the program locked included, their modes left as it set them); what cannot be read
    counts as nothing."""
    total = 0

    def count(fd: int, where: str) -> list[str]:
        nonlocal total
        folders = []
        with contextlib.suppress(OSError), os.scandir(fd) as entries:
            for entry in entries:
                with contextlib.suppress(OSError):
                    total += entry.stat(follow_symlinks=False).st_blocks * 512
                    if entry.is_dir(follow_symlinks=False):
                        folders.append(entry.name)
        return folders

    _walk(os.fspath(top), count, None, [], unlock=False)
    return total


def _walk(
    top: str,
    visit: Callable[[int, str], list[str]],
    leave: Callable[[int, str, str], None] | None,
    problems: list[str],
    *,
    unlock: bool,
) -> None:
    """Go through the tree below ``top`` depth first: ``visit(fd, where)`` gets each folder open
    and answers its subfolders' names, ``leave(parent_fd, name, where)`` follows a subfolder's own.

    Iterative, with one folder open at a time, each entered by name relative to its parent: neither
    the recursion limit, nor PATH_MAX, nor the descriptor limit bounds the depth. A folder this user
    cannot read or enter is given rwx by its owner for good with ``unlock`` (to empty it), else lent
    r-x until its subtree is done and then put back as it was (a running program's own folders).
    Another file system is not entered. What fails goes to ``problems``."""
    opened = _open_dir(top, None, None, problems, unlock=unlock)
    if opened is None:
        return
    fd, mode = opened
    device = os.fstat(fd).st_dev
    path: list[str] = []  # the names from top to the folder ``fd`` is open on
    lent = [mode]  # per level: the mode to put back on leaving it, or None
    pending = [visit(fd, top)]  # the subfolders still to enter, per level
    while True:
        if pending[-1]:
            name = pending[-1].pop()
            opened = _open_dir(name, fd, device, problems, "/".join([top, *path, name]), unlock=unlock)
            if opened is not None:
                os.close(fd)
                fd, mode = opened
                path.append(name)
                lent.append(mode)
                pending.append(visit(fd, "/".join([top, *path])))
            continue
        pending.pop()
        if (mode := lent.pop()) is not None:
            with contextlib.suppress(OSError):
                os.fchmod(fd, mode)
        if not path:
            break
        name = path.pop()
        try:
            parent = os.open("..", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC, dir_fd=fd)
        except OSError as e:
            problems.append(f"{'/'.join([top, *path])}: {e.strerror}")
            break
        os.close(fd)
        fd = parent
        if leave is not None:
            leave(fd, name, "/".join([top, *path, name]))
    os.close(fd)


def _open_dir(
    name: str, parent: int | None, device: int | None, problems: list[str], where: str = "", *, unlock: bool
) -> tuple[int, int | None] | None:
    """Open folder ``name`` (relative to ``parent``, never through a link) for listing, as
    :func:`_walk` says; returns the descriptor and the mode to put back later (None: nothing lent).
    None, with the reason in ``problems``, when it cannot be or lies on another file system than
    ``device``."""
    where = where or name
    try:
        handle = os.open(name, os.O_PATH | os.O_NOFOLLOW | os.O_DIRECTORY | os.O_CLOEXEC, dir_fd=parent)
    except FileNotFoundError:
        return None
    except OSError as e:
        problems.append(f"{where}: {e.strerror}")
        return None
    # An O_PATH descriptor: chmod reaches the folder itself through /proc, never a link.
    itself = f"/proc/self/fd/{handle}"
    try:
        st = os.fstat(handle)
        if device is not None and st.st_dev != device:
            problems.append(f"{where}: a mount point, left alone")
            return None
        if unlock:
            with contextlib.suppress(OSError):
                os.chmod(itself, stat.S_IRWXU)
            return os.open(".", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC, dir_fd=handle), None
        if os.access(itself, os.R_OK | os.X_OK):
            return os.open(".", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC, dir_fd=handle), None
        os.chmod(itself, stat.S_IMODE(st.st_mode) | stat.S_IRUSR | stat.S_IXUSR)
        return os.open(".", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC, dir_fd=handle), stat.S_IMODE(st.st_mode)
    except OSError as e:
        problems.append(f"{where}: {e.strerror}")
        return None
    finally:
        os.close(handle)


def _empty_out(fd: int, where: str, problems: list[str]) -> list[str]:
    """Remove every entry of the folder ``fd`` but its subfolders, whose names it returns."""
    folders = []
    try:
        with os.scandir(fd) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    folders.append(entry.name)
                    continue
                try:
                    os.unlink(entry.name, dir_fd=fd)
                except FileNotFoundError:
                    pass
                except OSError as e:
                    problems.append(f"{where}/{entry.name}: {e.strerror}")
    except OSError as e:
        problems.append(f"{where}: {e.strerror}")
    return folders


def _traversable_temp() -> str:
    temp = Path(tempfile.gettempdir()).resolve()
    if os.geteuid() != 0:
        return str(temp)  # the program runs as this user
    for folder in (temp, *temp.parents):
        try:
            if not folder.stat().st_mode & stat.S_IXOTH:
                return "/tmp"
        except OSError:
            return "/tmp"
    return str(temp)


def isolation() -> Isolation:
    """The strongest level this OS allows, at most the one ``CASS_LSP_SANDBOX_LEVEL`` names."""
    named = os.environ.get(LEVEL_ENV) or LEVELS[0]
    cap = next((level for level in LEVELS if level == named), None)
    if cap is None:
        raise SandboxError(f"{LEVEL_ENV}={named!r}: use one of {', '.join(LEVELS)}")
    return _isolation(cap)


@functools.cache
def _isolation(cap: Level) -> Isolation:
    refused = []
    for level in LEVELS[LEVELS.index(cap) :]:
        applied = _probe(level)
        if isinstance(applied, str) and level != "none":
            refused.append(f"{level} level unavailable: {applied}")
            continue
        # "none" asks nothing of the OS; if even it failed, its runs will say why.
        note = applied if isinstance(applied, str) else applied["note"]
        return Isolation(
            level=level,
            network=True,  # the seccomp filter refuses sockets at every level
            files=level != "none",
            pid_namespace=level == "full",
            process_cap=not isinstance(applied, str) and applied["processCap"],
            note="; ".join([note, *refused]),
        )
    raise AssertionError("unreachable: the loop ends with the none level")


@functools.cache
def _probe(level: Level) -> dict[str, Any] | str:
    """Launch ``true`` at ``level`` the way :func:`run` would: what the launcher applied, or why it failed."""
    with fresh_workdir("cass-probe-") as workdir:
        try:
            _, applied, end = _launch(["true"], workdir, Limits(), None, None, None, level=level, network=False)
        except SandboxError as e:
            return str(e)
    if applied is None or end is None or end["waitStatus"] != 0:
        return "the probe did not run to the end"
    return applied


def run(
    argv: Sequence[str | os.PathLike[str]],
    *,
    workdir: Path,
    limits: Limits = Limits(),  # noqa: B008 - frozen, so one shared default is safe
    stdin: bytes | None = None,
    env: Mapping[str, str] | None = None,
    cancel: threading.Event | None = None,
    network: bool = False,
    allow_unconfined: bool = False,
    pass_fds: Sequence[int] = (),
) -> RunOutcome:
    """Run ``argv`` confined, with ``workdir`` as its working directory, HOME and TMPDIR.

    The environment is only PATH=/usr/bin:/bin, HOME, TMPDIR, LANG=C.UTF-8 and what ``env`` adds
    (e.g. LD_LIBRARY_PATH for a GPU runtime): the server's environment may hold tokens and must not
    steer the program. When the server runs as root, ``workdir`` is handed to uid 65534, which the
    program runs as; it and the program must then be reachable by that user, as a
    :func:`fresh_workdir` is. ``network`` lets a program that needs it (a remote runner command)
    keep the host's network (and the home folders, read-only); every other isolation still applies.
    Where no level confines the program (:func:`isolation` says "none") it runs only with
    ``allow_unconfined``, which the caller takes from the user-level setting
    ``allowUnconfinedRuns`` in the user's ``settings.toml`` (never from a workspace's). ``pass_fds``
    stay open in the program (the CPU runtime's copy record: a file outside the work dir, which the
    program writes through the descriptor it inherits, bounded by the file size limit). Raises
    :class:`SandboxError` when the sandbox, not the program, failed or refused.
    """
    level = isolation().level
    if level == "none" and not allow_unconfined:
        raise SandboxError(
            f"no sandbox level confines programs here ({isolation().note}); runs are refused unless"
            f" {unconfined_hint()}"
        )
    bound = cgroups.memory_bound()
    whole_run = limits.memory_mb > 0 and bound.parent is not None
    if limits.memory_mb > 0 and not whole_run:
        # RLIMIT_AS holds per process: fewer processes keep the run's total bounded.
        limits = msgspec.structs.replace(limits, processes=min(limits.processes, cgroups.FALLBACK_PROCESSES))
    group = _run_cgroup(bound, limits.memory_mb) if whole_run else None
    try:
        if level == "full":
            # The work dir is an overlay whose writes land in a tmpfs of limits.disk_mb: the kernel bounds it.
            result, _, end = _launch(
                argv, workdir, limits, stdin, env, cancel, level=level, network=network, cgroup=group, pass_fds=pass_fds
            )
            over_disk, disk_peak = False, None
        else:
            kill = group.kill if group is not None else None
            with diskquota.DiskQuota(workdir, limits.disk_mb, cancel, kill, disk_usage) as quota:
                result, _, end = _launch(
                    argv, workdir, limits, stdin, env, quota.stop, level=level, network=network, cgroup=group,
                    pass_fds=pass_fds,
                )
            over_disk, disk_peak = quota.exceeded, quota.peak
        oom_kills = group.oom_kills() if group is not None else 0
    finally:
        if group is not None and (stayed := group.remove()) is not None:
            log.warning("a run's cgroup was not removed: %s", stayed)
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
        cancelled=result.cancelled and not over_disk,
        limit="disk" if over_disk else _limit_hit(result, end, sig, limits, oom_kills),
        truncated=result.truncated,
        limits=limits,
        memory_whole_run=whole_run,
        disk_peak_bytes=disk_peak,
    )


def _run_cgroup(bound: cgroups.MemoryBound, memory_mb: int) -> cgroups.RunCgroup:
    try:
        return cgroups.RunCgroup(bound, memory_mb)
    except OSError as e:
        raise SandboxError(f"cannot make the run's cgroup below {bound.parent}: {e.strerror}") from e


def _limit_hit(
    result: proc.ProcResult, end: dict[str, Any] | None, sig: int | None, limits: Limits, oom_kills: int
) -> str | None:
    if result.truncated:
        return "output"
    if end is None or result.timed_out or result.cancelled:
        return None
    if oom_kills:
        # The run's cgroup reached its limit: whatever the exit status, some process of it was killed.
        return "memory"
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
    level: Level,
    network: bool,
    cgroup: cgroups.RunCgroup | None = None,
    pass_fds: Sequence[int] = (),
) -> tuple[proc.ProcResult, dict[str, Any] | None, dict[str, Any] | None]:
    """Run ``argv`` through the launcher; returns the run, the isolation it applied, and how the
    program ended (each None when the run was stopped before the launcher could tell). Every
    failure of the sandbox itself raises SandboxError."""
    if isinstance(argv, str | bytes):
        raise TypeError("argv must be a list of arguments, not a string")
    program = [os.fspath(a) for a in argv]
    try:
        if os.geteuid() == 0:
            os.chown(workdir, NOBODY, NOBODY)
        read_end, write_end = os.pipe()
    except OSError as e:
        raise SandboxError(f"cannot prepare the run: {e}") from e
    try:
        plan = {
            "statusFd": write_end,
            "level": level,
            "network": network,
            "limits": msgspec.to_builtins(limits),
            "workdir": os.path.realpath(workdir),
            "hide": _hidden(network),
            "homes": _homes(),
            "keep": _kept(program, env, os.path.realpath(workdir)),
            "cgroupProcs": cgroup.procs if cgroup is not None else None,
        }
        scrubbed = {"PATH": "/usr/bin:/bin", "HOME": str(workdir), "TMPDIR": str(workdir), "LANG": "C.UTF-8"}
        result = _proc_run(
            [sys.executable, "-I", "-S", str(_LAUNCHER), json.dumps(plan), "--", *program],
            timeout=limits.timeout_seconds,
            cwd=workdir,
            env={**scrubbed, **(env or {})},
            input=stdin,
            cancel=cancel,
            output_limit=limits.output_bytes,
            pass_fds=(write_end, *pass_fds),
        )
        os.close(write_end)
        write_end = -1
        lines = _read_status(read_end)
    finally:
        for fd in (read_end, write_end):
            if fd >= 0:
                os.close(fd)
    errors = [line["error"] for line in lines if "error" in line]
    if errors:
        raise SandboxError("; ".join(errors))
    applied = next((line for line in lines if "level" in line), None)
    end = next((line for line in lines if "waitStatus" in line), None)
    stopped = result.timed_out or result.cancelled or result.truncated or (cancel is not None and cancel.is_set())
    if end is None and not stopped:
        # The launcher left without saying how the program ended (it crashed, or was killed):
        # its exit status is not the program's.
        raise SandboxError(f"sandbox launcher ended early (status {result.returncode}): {result.text()[-2000:]}")
    return result, applied, end


def _proc_run(argv: list[str], **kwargs: Any) -> proc.ProcResult:
    try:
        return proc.run(argv, **kwargs)
    except OSError as e:  # no fork, no interpreter: the sandbox could not start
        raise SandboxError(f"cannot start the sandbox launcher: {e}") from e


def _homes() -> list[str]:
    """The users' folders: every home, this server's $HOME and its user's home, /run/user."""
    folders = [*_HOMES, os.path.expanduser("~"), pwd.getpwuid(os.getuid()).pw_dir]
    # A service account's home may be "/": hiding it would hide the system.
    return sorted({os.path.realpath(f) for f in folders if f and os.path.isabs(f)} - {"/"})


def _hidden(network: bool) -> list[str]:
    """Folders covered by an empty tmpfs at the full level (real paths, as the launcher compares them)."""
    folders = [os.path.realpath(f) for f in _ALWAYS_HIDDEN]
    return sorted({*folders, *([] if network else _homes())})


def _kept(program: list[str], env: Mapping[str, str] | None, workdir: str) -> list[str]:
    """What the program needs to see even below a hidden folder: this Python's prefixes (the venv
    holds the CUDA libraries), the library folders ``env`` names, the program's own folder; the
    work dir is visible anyway."""
    paths = {sys.prefix, sys.base_prefix}
    paths.update(p for p in (env or {}).get("LD_LIBRARY_PATH", "").split(":") if p)
    if os.path.isabs(program[0]):
        paths.add(os.path.dirname(program[0]))
    real = {os.path.realpath(p) for p in paths if os.path.isabs(p)}
    return sorted(p for p in real if p != workdir and not p.startswith(workdir + "/"))


def _read_status(fd: int) -> list[dict[str, Any]]:
    """The launcher's JSON lines. Read without blocking: a killed launcher's init may not have
    closed its end yet, and what it had not written by now is not wanted."""
    os.set_blocking(fd, False)
    data = b""
    with contextlib.suppress(BlockingIOError):
        while chunk := os.read(fd, 1 << 16):
            data += chunk
    return [json.loads(line) for line in data.splitlines() if line.endswith(b"}")]
