"""Landlock (Linux >= 5.13) for the sandbox's "landlock" level: the file system, TCP and the
process scopes of an unprivileged program, without namespaces.

Standard library only (ctypes; the Landlock syscall numbers are the same on x86-64 and aarch64):
:mod:`cass_lsp.verify.confine` loads it in
an interpreter that cannot import the package. A ruleset applies to the calling thread and
everything it starts afterwards; the launcher applies it in the forked program just before exec,
so the launcher itself stays outside the domain (which is what makes it safe from the program's
signals).

What the level needs is ABI 6 (Linux 6.12): besides files (ABI 1) and TCP (ABI 4), it scopes
signals and abstract UNIX sockets to the domain, so the program can neither kill the launcher
that reaps it nor signal the server running as the same user. Landlock also refuses ptrace-class
access (``/proc/PID/mem``, ``/proc/PID/environ``) to any process outside the domain, from ABI 1.
"""

from __future__ import annotations

import ctypes
import os
import stat
from collections.abc import Iterable

SYS_CREATE_RULESET = 444
SYS_ADD_RULE = 445
SYS_RESTRICT_SELF = 446
CREATE_RULESET_VERSION = 1
RULE_PATH_BENEATH = 1
# The first ABI that scopes signals and abstract UNIX sockets.
REQUIRED_ABI = 6

# File-system rights, with the ABI that introduced each (the kernel refuses unknown bits).
EXECUTE, WRITE_FILE, READ_FILE, READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
_FS_RIGHTS_ABI1 = (1 << 13) - 1  # EXECUTE .. MAKE_SYM
REFER, TRUNCATE, IOCTL_DEV = 1 << 13, 1 << 14, 1 << 15
# Rights that make sense on a file; the rest only on a directory (the kernel says EINVAL otherwise).
_FILE_RIGHTS = EXECUTE | WRITE_FILE | READ_FILE | TRUNCATE | IOCTL_DEV
NET_BIND_TCP, NET_CONNECT_TCP = 1 << 0, 1 << 1
SCOPE_ABSTRACT_UNIX_SOCKET, SCOPE_SIGNAL = 1 << 0, 1 << 1

_libc = ctypes.CDLL(None, use_errno=True)


class _RulesetAttr(ctypes.Structure):
    _fields_ = (
        ("handled_access_fs", ctypes.c_uint64),
        ("handled_access_net", ctypes.c_uint64),
        ("scoped", ctypes.c_uint64),
    )


class _PathBeneathAttr(ctypes.Structure):
    _pack_ = 1  # the kernel's struct is packed: 12 bytes
    _fields_ = (("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32))


def _check(result: int, what: str) -> int:
    if result < 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")
    return result


def abi() -> int:
    """The Landlock ABI version this kernel offers; 0 when it has none or it is disabled."""
    version: int = _libc.syscall(SYS_CREATE_RULESET, None, ctypes.c_size_t(0), ctypes.c_uint32(CREATE_RULESET_VERSION))
    return max(version, 0)


def require() -> int:
    """The ABI version; raises RuntimeError, saying why, when it is below what the level needs."""
    version = abi()
    if version < REQUIRED_ABI:
        have = f"Landlock ABI {version}" if version else "no Landlock"
        raise RuntimeError(f"{have}; the landlock level needs ABI {REQUIRED_ABI} (Linux 6.12) to scope signals")
    return version


def handled_fs(version: int) -> int:
    rights = _FS_RIGHTS_ABI1
    for right, since in ((REFER, 2), (TRUNCATE, 3), (IOCTL_DEV, 5)):
        if version >= since:
            rights |= right
    return rights


def restrict(*, read: Iterable[str], write: Iterable[str], devices: Iterable[str], network: bool) -> None:
    """Confine the calling process and its future children: ``read`` may be read and executed,
    ``write`` (directories) fully used, ``devices`` (device nodes or folders of them) read, written
    and ioctl'd; every other path is refused. Without ``network`` no TCP bind or connect. Signals
    and abstract UNIX sockets reach only the domain. Needs NO_NEW_PRIVS set; raises OSError or RuntimeError."""
    version = require()
    fs = handled_fs(version)
    attr = _RulesetAttr(
        handled_access_fs=fs,
        handled_access_net=0 if network else NET_BIND_TCP | NET_CONNECT_TCP,
        scoped=SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL,
    )
    ruleset = _check(
        _libc.syscall(SYS_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(ctypes.sizeof(attr)), 0),
        "landlock_create_ruleset",
    )
    try:
        for paths, rights in (
            (read, EXECUTE | READ_FILE | READ_DIR),
            (devices, READ_FILE | WRITE_FILE | READ_DIR | IOCTL_DEV | TRUNCATE),
            (write, fs),
        ):
            for path in paths:
                _allow(ruleset, path, rights & fs)
        _check(_libc.syscall(SYS_RESTRICT_SELF, ruleset, 0), "landlock_restrict_self")
    finally:
        os.close(ruleset)


def _allow(ruleset: int, path: str, rights: int) -> None:
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except OSError:
        # A system folder this distribution does not have (/lib32), or one this uid cannot open
        # (a Python under /root): the program could not read it either.
        return
    try:
        if not stat.S_ISDIR(os.fstat(fd).st_mode):
            rights &= _FILE_RIGHTS
        rule = _PathBeneathAttr(allowed_access=rights, parent_fd=fd)
        _check(
            _libc.syscall(SYS_ADD_RULE, ruleset, RULE_PATH_BENEATH, ctypes.byref(rule), 0), f"landlock_add_rule {path}"
        )
    finally:
        os.close(fd)
