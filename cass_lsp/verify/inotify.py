"""inotify(7) through ctypes for the disk limit of a run (:mod:`.diskquota`): one descriptor, one
watch per folder, events read the moment they arrive.

The editor's file watcher is watchdog's (:mod:`.kept_folders`). The disk limit needs what watchdog's
callback threads do not give: a read that returns on the first event or when a wake descriptor is
written (the run's end), and watches on ``/proc/self/fd/N`` links for folders nested past PATH_MAX.
"""

from __future__ import annotations

import ctypes
import errno
import os
import select
import struct
import sys
from collections.abc import Iterator
from typing import NamedTuple

MODIFY = 0x2
ATTRIB = 0x4
CLOSE_WRITE = 0x8
MOVED_FROM = 0x40
MOVED_TO = 0x80
CREATE = 0x100
DELETE = 0x200
Q_OVERFLOW = 0x4000
IGNORED = 0x8000  # the watch is gone (its folder was deleted, or rm_watch)
ISDIR = 0x40000000
_ONLYDIR = 0x1000000
_DONT_FOLLOW = 0x2000000
_EXCL_UNLINK = 0x4000000
_CLOEXEC = 0o2000000
_NONBLOCK = 0o4000
# what changes a file's content or where it is; opening and reading do not
CHANGES = MODIFY | ATTRIB | CLOSE_WRITE | MOVED_FROM | MOVED_TO | CREATE | DELETE
_WATCH_MASK = CHANGES | _ONLYDIR | _DONT_FOLLOW | _EXCL_UNLINK
_HEADER = struct.Struct("iIII")  # struct inotify_event: wd, mask, cookie, len (then the name)


class Event(NamedTuple):
    wd: int
    mask: int
    name: str  # "" for an event on the watched folder itself


def _libc() -> ctypes.CDLL | None:
    if not sys.platform.startswith("linux"):
        return None
    libc = ctypes.CDLL(None, use_errno=True)
    return libc if hasattr(libc, "inotify_init1") else None


_LIBC = _libc()


def available() -> bool:
    return _LIBC is not None


class Inotify:
    def __init__(self) -> None:
        assert _LIBC is not None, "inotify is Linux-only: check available() first"
        self._libc = _LIBC
        self.fd = self._check(self._libc.inotify_init1(_CLOEXEC | _NONBLOCK), "inotify_init1")

    def _check(self, result: int, what: str) -> int:
        if result < 0:
            code = ctypes.get_errno()
            raise OSError(code, f"{what}: {os.strerror(code)}")
        return result

    def add(self, folder: str, *, follow: bool = False) -> int:
        """The watch descriptor of ``folder`` (the same one again for a folder already watched).
        OSError with ENOSPC when ``fs.inotify.max_user_watches`` is reached. ``follow`` lets the
        last component be a link: ``/proc/self/fd/N`` for a folder whose path is past PATH_MAX."""
        mask = _WATCH_MASK & ~_DONT_FOLLOW if follow else _WATCH_MASK
        return self._check(self._libc.inotify_add_watch(self.fd, os.fsencode(folder), mask), folder)

    def remove(self, wd: int) -> None:
        self._libc.inotify_rm_watch(self.fd, wd)  # EINVAL: the kernel already dropped it

    def read(self, timeout_s: float, wake_fd: int) -> list[Event]:
        """The events that arrive within ``timeout_s``; returns early, maybe with none, once
        ``wake_fd`` is readable."""
        ready, _, _ = select.select([self.fd, wake_fd], [], [], timeout_s)
        if self.fd not in ready:
            return []
        events: list[Event] = []
        while True:
            try:
                buffer = os.read(self.fd, 256 * 1024)
            except BlockingIOError:
                return events
            events.extend(_parse(buffer))

    def close(self) -> None:
        os.close(self.fd)  # the kernel drops every watch with it


def _parse(buffer: bytes) -> Iterator[Event]:
    offset = 0
    while offset + _HEADER.size <= len(buffer):
        wd, mask, _cookie, length = _HEADER.unpack_from(buffer, offset)
        offset += _HEADER.size
        name = buffer[offset : offset + length].rstrip(b"\0")
        offset += length
        yield Event(wd, mask, os.fsdecode(name))


def limit_reached(error: OSError) -> bool:
    return error.errno == errno.ENOSPC
