"""The file-system view of the sandbox's "full" level, built inside a new user + mount namespace.

The whole system is seen read-only; the work dir is the one writable place, an overlay whose
writes land in a tmpfs of the run's disk limit (the host's folder is never written); tmpfs hides
the home folders, /tmp, /var/tmp, /run/user and /dev/shm (secrets, other programs' sockets, and
places where a write would persist); paths the program needs from under a hidden folder (a venv
in the home folder) are bound back read-only; :func:`fresh_proc` replaces /proc with one of the
new PID namespace, where the server's processes do not exist.

Standard library only (ctypes, the mount API of Linux 5.12, whose syscall numbers are the same on x86-64 and aarch64):
:mod:`cass_lsp.verify.confine` runs it in an interpreter that cannot import the package. Every
mount stays in the namespace, which the kernel tears down with its last process.
"""

from __future__ import annotations

import ctypes
import os
from collections.abc import Sequence

SYS_OPEN_TREE = 428
SYS_MOVE_MOUNT = 429
SYS_FSOPEN = 430
SYS_FSCONFIG = 431
SYS_FSMOUNT = 432
SYS_MOUNT_SETATTR = 442
FSOPEN_CLOEXEC = 1
FSCONFIG_SET_STRING = 1
FSCONFIG_CMD_CREATE = 6
FSMOUNT_CLOEXEC = 1
MOUNT_ATTR_NODEV = 0x4
AT_FDCWD = -100
AT_EMPTY_PATH = 0x1000
AT_RECURSIVE = 0x8000
OPEN_TREE_CLONE = 1
MOVE_MOUNT_F_EMPTY_PATH = 0x4
MOUNT_ATTR_RDONLY = 0x1
MOUNT_ATTR_NOSUID = 0x2
MS_NOSUID, MS_NODEV, MS_NOEXEC = 0x2, 0x4, 0x8
MS_REC = 0x4000
MS_PRIVATE = 1 << 18

_libc = ctypes.CDLL(None, use_errno=True)


class _MountAttr(ctypes.Structure):
    _fields_ = (
        ("attr_set", ctypes.c_uint64),
        ("attr_clr", ctypes.c_uint64),
        ("propagation", ctypes.c_uint64),
        ("userns_fd", ctypes.c_uint64),
    )


_READ_ONLY = _MountAttr(attr_set=MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID)


def _check(result: int, what: str) -> int:
    if result < 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")
    return result


def _mount(source: str | None, target: str, fstype: str | None, flags: int, data: str | None = None) -> None:
    _check(
        _libc.mount(
            source and source.encode(),
            target.encode(),
            fstype and fstype.encode(),
            ctypes.c_ulong(flags),
            data and data.encode(),
        ),
        f"mount {target}",
    )


def _clone(path: str) -> int:
    """A detached copy of the mount tree at ``path`` (a file descriptor), to attach elsewhere later."""
    return _check(
        _libc.syscall(SYS_OPEN_TREE, AT_FDCWD, path.encode(), OPEN_TREE_CLONE | os.O_CLOEXEC | AT_RECURSIVE),
        f"open_tree {path}",
    )


def _read_only(dirfd: int, path: str, flags: int) -> None:
    _check(
        _libc.syscall(
            SYS_MOUNT_SETATTR,
            dirfd,
            path.encode(),
            flags | AT_RECURSIVE,
            ctypes.byref(_READ_ONLY),
            ctypes.c_size_t(ctypes.sizeof(_READ_ONLY)),
        ),
        f"mount_setattr {path or 'clone'}",
    )


def _attach(tree: int, path: str, is_dir: bool) -> None:
    """Mount the detached ``tree`` at ``path``, creating the mount point inside a tmpfs if needed."""
    if is_dir:
        os.makedirs(path, exist_ok=True)
    elif not os.path.exists(path):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
    _check(
        _libc.syscall(SYS_MOVE_MOUNT, tree, b"", AT_FDCWD, path.encode(), MOVE_MOUNT_F_EMPTY_PATH), f"move_mount {path}"
    )
    os.close(tree)


def _detached_tmpfs(size_mb: int) -> int:
    """A tmpfs of ``size_mb`` mounted nowhere (a file descriptor): reachable only through it."""
    fs = _check(_libc.syscall(SYS_FSOPEN, b"tmpfs", FSOPEN_CLOEXEC), "fsopen tmpfs")
    try:
        for key, value in ((b"size", f"{size_mb}m".encode()), (b"mode", b"700")):
            _check(_libc.syscall(SYS_FSCONFIG, fs, FSCONFIG_SET_STRING, key, value, 0), f"fsconfig {key.decode()}")
        _check(_libc.syscall(SYS_FSCONFIG, fs, FSCONFIG_CMD_CREATE, None, None, 0), "fsconfig create")
        return _check(_libc.syscall(SYS_FSMOUNT, fs, FSMOUNT_CLOEXEC, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV), "fsmount tmpfs")
    finally:
        os.close(fs)


def _overlay(workdir: str, disk_mb: int) -> None:
    """Cover the work dir with an overlay: reads see what the server put there, writes (new files,
    changed ones copied up) go to a detached tmpfs of ``disk_mb``, full with ENOSPC."""
    scratch = _detached_tmpfs(disk_mb)
    lower = os.open(workdir, os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        for name in ("upper", "work"):
            os.mkdir(name, 0o700, dir_fd=scratch)
        # /proc/self/fd names every layer: no path of the host's, so none to escape in the options.
        layers = f"lowerdir=/proc/self/fd/{lower},upperdir=/proc/self/fd/{scratch}/upper,workdir=/proc/self/fd/{scratch}/work"
        # userxattr: overlay's own metadata in user.* attributes, which a user namespace may set.
        _mount("overlay", workdir, "overlay", MS_NOSUID | MS_NODEV, f"{layers},userxattr")
    finally:
        os.close(lower)
        os.close(scratch)


def _inside(path: str, folders: Sequence[str]) -> bool:
    return any(path == f or path.startswith(f.rstrip("/") + "/") for f in folders)


def confine(workdir: str, hide: Sequence[str], keep: Sequence[str], tmpfs_mb: int, disk_mb: int) -> None:
    """Build the view (we hold CAP_SYS_ADMIN over this mount namespace). All paths are real paths:
    the work dir stays writable, up to ``disk_mb`` (:func:`_overlay`), ``hide`` get an empty tmpfs of ``tmpfs_mb`` each, ``keep`` (files
    or folders) stay visible read-only even below a hidden folder. Raises OSError."""
    # Nothing done here may propagate back to the host's mounts.
    _mount(None, "/", None, MS_REC | MS_PRIVATE)
    hidden = [h for h in hide if os.path.isdir(h)]
    # Copies taken before the system turns read-only and the hidden folders are covered.
    work = _clone(workdir)
    kept = [
        (path, _clone(path), os.path.isdir(path)) for path in keep if _inside(path, hidden) and os.path.exists(path)
    ]
    _read_only(AT_FDCWD, "/", 0)
    # Parents first: a folder inside one already hidden is gone with it.
    for folder in sorted(hidden, key=len):
        if os.path.isdir(folder):
            _mount("tmpfs", folder, "tmpfs", MS_NOSUID | MS_NODEV, f"size={tmpfs_mb}m,mode=755")
    for path, tree, is_dir in kept:
        _read_only(tree, "", AT_EMPTY_PATH)
        _attach(tree, path, is_dir)
    # Last, so that a work dir inside a kept folder is still writable.
    _attach(work, workdir, True)
    _overlay(workdir, disk_mb)
    # The current directory still points into the mount now covered (read-only, or hidden).
    os.chdir(workdir)


def fresh_proc() -> None:
    """Mount a /proc of the caller's PID namespace over the host's (run by that namespace's init)."""
    _mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
