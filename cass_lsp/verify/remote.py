"""The "command" runner on another machine: stage the run directory there over ssh, run, clean up.

A program built here does not exist on a GPU box, so with ``cass.verification.commandHost`` set a
run takes two ssh connections, each an argv list through :func:`cass_lsp.core.proc.run`:

1. stage: the run directory (the program and the input files the verifier copied beside it) goes as
   a tar stream into a fresh ``<commandDir>/cass-run-<random>/work`` on the host;
2. run: ``cass.verification.command`` (default: the program itself) runs there with that directory
   as its working directory, under ``timeout(1)`` and ``ulimit`` for CPU seconds and memory, in a
   process group of its own; stdout, stderr and stdin go through ssh. Then the same shell line kills
   what is left of the group, removes the copy and prints the program's exit status as the last line
   of stderr: ssh's own exit status cannot carry it, since ssh exits 255 on its failures, as a
   program may.

A run that does not end that way (timeout, cancel, output limit, a failure) takes a third
connection that kills the remote process group and removes the copy.

ssh and the user's ssh configuration are trusted tools of the user (the settings are restricted
in untrusted workspaces), so ssh runs as the server's user, not in the local sandbox, which would
hide ``~/.ssh``. The untrusted program runs only on the remote host, without the local sandbox's
namespaces. ssh joins the remote command into one shell line; every word is quoted with
:func:`shlex.quote`, and the line is given to ``sh -c`` so that the user's login shell (csh, fish)
does not matter.

Failures of ssh, of staging or of cleanup raise :class:`RemoteError`: they say nothing about the
program, which must never be judged on them.
"""

from __future__ import annotations

import contextlib
import io
import math
import secrets
import shlex
import signal
import tarfile
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from cass_lsp.core import proc
from cass_lsp.verify import sandbox
from cass_lsp.verify.runners import CannotRun, command_argv

if TYPE_CHECKING:
    from cass_lsp.core.settings import VerificationSettings

# Staging a few MB of program over a slow link; removing the copy.
_STAGE_TIMEOUT_S = 120.0
_CLEANUP_TIMEOUT_S = 30.0
# The remote timeout(1) only backs up the local deadline (a dropped connection leaves nobody to
# kill the program): it fires this much later, so the local timeout decides the verdict.
_REMOTE_GRACE_S = 10
# What the remote shell scripts exit with when the runner, not the program, failed.
_RUNNER_FAILED = 3
# The dynamic loader's message when a library is missing on the host (it exits 127).
_LOADER_FAILED = b"error while loading shared libraries"
_TAIL = 2000
# Before the program's exit status, on the last line of stderr.
_STATUS = "cass-lsp-exit-status:"


class RemoteError(sandbox.SandboxError):
    """ssh, staging or cleanup failed: the program did not run, or how it ended is unknown."""


def run(
    settings: VerificationSettings,
    exe: Path,
    workdir: Path,
    args: list[str],
    *,
    limits: sandbox.Limits,
    stdin: bytes | None,
    cancel: threading.Event | None,
) -> sandbox.RunOutcome:
    """Run ``exe`` (which lies in ``workdir``) with ``args`` on ``settings.command_host``.

    Raises RemoteError when ssh or the remote shell failed, CannotRun for unusable settings."""
    host = settings.command_host
    if not host or host.startswith("-"):
        raise CannotRun(
            f'cass.verification.commandHost {host!r} is not an ssh destination such as "gpu-box" or "me@gpu-box"'
        )
    if not settings.command_ssh:
        raise CannotRun(
            'cass.verification.commandSsh is empty: give the ssh client, e.g. ["ssh"] or ["ssh", "-p", "2222"]'
        )
    remote = f"{_remote_base(settings.command_dir)}/cass-run-{secrets.token_hex(8)}"
    ssh = [*settings.command_ssh, "-T", "-o", "BatchMode=yes", "--", host]
    try:
        staged = _stage(ssh, workdir, remote, cancel)
        result = None
        if staged is not None:
            filled = command_argv(settings.command or ["{exe}"], staged / exe.relative_to(workdir), staged)
            result = proc.run(
                [*ssh, _sh(_run_script(remote, [*filled, *args], limits, host))],
                timeout=limits.timeout_seconds,
                input=stdin,
                cancel=cancel,
                output_limit=limits.output_bytes,
            )
    except BaseException:
        with contextlib.suppress(RemoteError):  # the error in flight says more than the cleanup's
            _cleanup(ssh, remote, host)
        raise
    stderr, status = _split_status(result.stderr) if result is not None else (b"", None)
    if status is None or result is None or not result.ok:
        _cleanup(ssh, remote, host)
    if result is None:
        return _stopped(limits, cancelled=True)
    if result.timed_out or result.cancelled or result.truncated:
        return _stopped(limits, result)
    if result.returncode != 0:
        raise RemoteError(f"running on {host} failed (ssh exited {result.returncode}): {_tail(stderr)}")
    if status is None:
        raise RemoteError(f"the program on {host} left no exit status: {_tail(stderr)}")
    if status == 127 and _LOADER_FAILED in stderr:
        raise RemoteError(f"{host} cannot load the program: {_tail(stderr)}")
    # The remote shell reports a program killed by signal N as 128+N.
    sig = status - 128 if 128 < status <= 128 + 64 else None
    return sandbox.RunOutcome(
        exit_code=None if sig is not None else status,
        signal=sig,
        stdout=result.stdout,
        stderr=stderr,
        duration=result.duration,
        limit="cpu time" if sig == signal.SIGXCPU else None,
        limits=limits,
    )


def _remote_base(directory: str) -> str:
    """``commandDir`` as the remote shell takes it: a leading ``~`` is the home directory, where ssh
    starts, so it becomes a relative path (quoted, the shell would not expand it)."""
    if directory == "~" or directory.startswith("~/"):
        directory = directory[2:] or "."
    return directory.rstrip("/") or ("/" if directory.startswith("/") else ".")


def _stage(ssh: list[str], workdir: Path, remote: str, cancel: threading.Event | None) -> Path | None:
    """Copy ``workdir`` into ``remote``/work on the host; that directory's absolute path there, None
    when cancelled."""
    script = (
        f"mkdir -p {shlex.quote(remote.rsplit('/', 1)[0] or '/')} && mkdir -m 700 {shlex.quote(remote)}"
        f" && cd {shlex.quote(remote)} && mkdir work && tar -xf - -C work --no-same-owner && pwd"
    )
    result = proc.run([*ssh, _sh(script)], timeout=_STAGE_TIMEOUT_S, input=_tar(workdir), cancel=cancel)
    if result.cancelled:
        return None
    if not result.ok:
        why = "timed out" if result.timed_out else f"exited {result.returncode}"
        raise RemoteError(f"copying the program to {ssh[-1]}:{remote} failed (ssh {why}): {_tail(result.stderr)}")
    lines = result.stdout.decode("utf-8", "replace").strip().splitlines()
    if not lines or not lines[-1].startswith("/"):
        raise RemoteError(f"copying the program to {ssh[-1]}:{remote}: the remote shell printed no directory")
    return Path(lines[-1], "work")


def _tar(workdir: Path) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        for child in sorted(workdir.iterdir()):
            archive.add(child, arcname=child.name)
    return buffer.getvalue()


def _run_script(remote: str, argv: list[str], limits: sandbox.Limits, host: str) -> str:
    """The remote shell line: check the tools, run ``argv`` in the copy, end its process group,
    remove the copy, print the exit status.

    ``timeout`` puts itself and the program in a new process group; the inner shell execs it, so the
    pid that shell writes is that group's id, which is killed afterwards (helpers the program left
    running) or by :func:`_cleanup`."""
    ulimits = ["ulimit -c 0", f"ulimit -t {limits.cpu_seconds}"]
    if limits.memory_mb > 0:
        ulimits.append(f"ulimit -v {limits.memory_mb * 1024}")
    deadline = math.ceil(limits.timeout_seconds) + _REMOTE_GRACE_S
    inner = f"echo $$ > ../pid; {'; '.join(ulimits)}; exec timeout -s KILL {deadline} {shlex.join(argv)}"
    checks = [
        _require(f"cd {shlex.quote(remote + '/work')}", f"cannot enter {remote}/work on {host}"),
        _require("command -v timeout >/dev/null 2>&1", f"{host} has no timeout(1) (GNU coreutils)"),
        _require(f"command -v {shlex.quote(argv[0])} >/dev/null 2>&1", f"{argv[0]} not found on {host}"),
    ]
    return (
        f"{'; '.join(checks)}; sh -c {shlex.quote(inner)}; s=$?; {_remove(remote)}"
        f" && printf '\\n{_STATUS}%s\\n' \"$s\" >&2"
    )


def _require(test: str, message: str) -> str:
    return f"{test} || {{ echo {shlex.quote('cass-lsp: ' + message)} >&2; exit {_RUNNER_FAILED}; }}"


def _remove(remote: str) -> str:
    """Shell words: kill what is left of the program's process group, then remove the copy."""
    q = shlex.quote(remote)
    return (
        f'cd && {{ p=$(cat {q}/pid 2>/dev/null) && kill -s KILL -- "-$p" 2>/dev/null;'
        f" chmod -R u+rwx {q} 2>/dev/null; rm -rf {q}; }}"
    )


def _split_status(stderr: bytes) -> tuple[bytes, int | None]:
    """The program's stderr and the exit status the run script appended to it (None: not there)."""
    head, marker, tail = stderr.rpartition(b"\n" + _STATUS.encode())
    status = tail.strip().decode("ascii", "replace")
    return (head, int(status)) if marker and status.isdigit() else (stderr, None)


def _cleanup(ssh: list[str], remote: str, host: str) -> None:
    """After a run that did not end normally: end the program's process group, remove the copy.

    Not cancellable: it is what a cancel relies on."""
    result = proc.run([*ssh, _sh(_remove(remote))], timeout=_CLEANUP_TIMEOUT_S)
    if not result.ok:
        raise RemoteError(f"removing {host}:{remote} failed (ssh exited {result.returncode}): {_tail(result.stderr)}")


def _stopped(
    limits: sandbox.Limits, result: proc.ProcResult | None = None, *, cancelled: bool = False
) -> sandbox.RunOutcome:
    """A run stopped here (timeout, cancel, output limit): how the program would have ended is unknown."""
    return sandbox.RunOutcome(
        exit_code=None,
        signal=None,
        stdout=result.stdout if result else b"",
        stderr=result.stderr if result else b"",
        duration=result.duration if result else 0.0,
        timed_out=result.timed_out if result else False,
        cancelled=cancelled or (result.cancelled if result else False),
        limit="output" if result and result.truncated else None,
        truncated=result.truncated if result else False,
        limits=limits,
    )


def _sh(script: str) -> str:
    """The one remote word ssh hands to the login shell: ``sh -c`` and the script."""
    return f"sh -c {shlex.quote(script)}"


def _tail(data: bytes) -> str:
    return data.decode("utf-8", "replace").strip()[-_TAIL:]
