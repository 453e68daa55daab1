"""The disk limit of a run that writes to the host's file system (the ``landlock`` and ``none`` levels).

The ``full`` level's work dir is an overlay over a tmpfs of the limit, which the kernel bounds.
Without namespaces no file system of the run's own can be mounted, and the host's offers no quota
an ordinary user may set (project quotas need root and a file system mounted for them), so the use
is counted while the program writes and the run is stopped the moment it passes the limit:

* events, not a poll: one inotify descriptor (:mod:`.inotify`) watches the work dir and every
  folder as it appears (new folders are queued and watched a few at a time between reads, so a
  program that makes thousands first cannot delay the count of what it writes next; paths past
  PATH_MAX are reached through descriptors); each event on a file stats that one file (its
  allocated blocks), so the running total follows every ``write``, ``copy_file_range`` and
  ``truncate`` within a scheduling delay, however many files and folders there are;
* a walk of the whole tree (:func:`.sandbox.disk_usage`) on its own thread, resting :data:`WALK_S`
  between walks, for what inotify does not report: stores through a shared ``mmap`` of a file,
  folders the program made unreadable before they could be watched, a queue that overflowed, and
  folders past the first :data:`_MAX_WATCHES` (the editor's file watcher needs the user's watches);
* on passing the limit, ``stop`` is set and ``kill`` called at once (the run's cgroup, when it has
  one, is killed whole: no process of it can write further).

This is not a bound the kernel holds: what the program writes between its write and the kill is
past the limit. :mod:`.confine` keeps that small (each file at most ``min(fileSizeMb, diskMb)`` by
RLIMIT_FSIZE, and ``fallocate`` refused by the seccomp filter, so space is taken only as fast as it
is written), and :attr:`DiskQuota.peak` says how far it got; docs/THREAT_MODEL.md states the margin
the attack benchmark holds it to.
"""

from __future__ import annotations

import collections
import contextlib
import logging
import os
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

from cass_lsp.verify import inotify

log = logging.getLogger(__name__)

WALK_S = 0.1
"""How long the walk of the whole tree rests between two walks."""
# How soon the caller's cancel reaches a run that is measured.
_CANCEL_POLL_S = 0.05
# Paths up to this long are used as they are; a deeper file or folder (the program may nest past
# PATH_MAX, 4,096 bytes) is reached through descriptors, a chunk of this many bytes at a time.
_SHORT_PATH = 2048
# New folders watched between two reads of the events.
_FOLDERS_PER_ROUND = 8
# Watches a run may take of the user's fs.inotify.max_user_watches, which the editor's file watcher
# needs too; folders past it are counted by the walk only.
_MAX_WATCHES = 10_000
_FOLDER_FLAGS = os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC


class DiskQuota:
    """Counts what a run holds below ``workdir`` while it runs (a context manager around the run)
    and stops it past ``disk_mb``: ``stop`` is set (it also follows the caller's ``cancel``, so it is
    the run's cancel event) and ``kill`` is called once. The events and the walk each have a thread
    (a walk of a tree thousands of folders deep takes a second or more: the events must not wait)."""

    def __init__(
        self,
        workdir: Path,
        disk_mb: int,
        cancel: threading.Event | None,
        kill: Callable[[], None] | None,
        measure: Callable[[str], int],
    ) -> None:
        self._top = os.fspath(workdir)
        self._limit = disk_mb << 20
        self._cancel = cancel
        self._kill = kill
        self._measure = measure
        self.stop = threading.Event()
        self.exceeded = False
        self.peak = 0
        """The most the run was seen to hold, in bytes, the tree measured after it ended included."""
        self._lock = threading.Lock()
        self._done = threading.Event()
        self._sizes: dict[str, int] = {}  # path -> allocated bytes, every file and folder below the top
        self._total = 0
        self._folders: dict[int, str] = {}  # watch descriptor -> folder
        self._unwatched: collections.deque[str] = collections.deque()  # folders seen, not yet watched
        self._notify: inotify.Inotify | None = None
        self._wake_r, self._wake_w = os.pipe()
        self._threads = [
            threading.Thread(target=self._follow_events, name="cass-disk-events", daemon=True),
            threading.Thread(target=self._walk, name="cass-disk-walk", daemon=True),
        ]

    def __enter__(self) -> DiskQuota:
        if inotify.available():
            try:
                self._notify = inotify.Inotify()
                self._unwatched.append(self._top)
                while self._unwatched:  # what the caller put there before the run: a few files
                    self._watch(self._unwatched.popleft())
            except OSError as error:  # fs.inotify.max_user_instances reached: the walk alone counts
                log.warning("disk limit measured by walks only: %s", error)
                self._close_notify()
        for thread in self._threads:
            thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._done.set()
        os.write(self._wake_w, b"x")
        for thread in self._threads:
            thread.join()
        self._close_notify()
        for fd in (self._wake_r, self._wake_w):
            os.close(fd)
        # The program has ended: what it left is what it reached, unless it removed some of it.
        self._account(self._measure(self._top))

    def _close_notify(self) -> None:
        if self._notify is not None:
            self._notify.close()
            self._notify = None

    def _running(self) -> bool:
        if self._cancel is not None and self._cancel.is_set():
            self.stop.set()
        return not (self._done.is_set() or self.stop.is_set())

    def _walk(self) -> None:
        while self._running():
            self._account(self._measure(self._top))
            self._done.wait(WALK_S)

    def _follow_events(self) -> None:
        """Count each file's event as it comes; new folders wait in a queue and are watched a few
        at a time in between, so that a program making thousands of them first cannot delay the
        count of what it writes next."""
        while self._running():
            if self._notify is None:
                self._done.wait(_CANCEL_POLL_S)
                continue
            for event in self._notify.read(0 if self._unwatched else _CANCEL_POLL_S, self._wake_r):
                if event.mask & inotify.ISDIR and event.mask & (inotify.CREATE | inotify.MOVED_TO):
                    folder = self._folders.get(event.wd)
                    if folder is not None:
                        self._unwatched.append(f"{folder}/{event.name}")
                else:
                    self._handle(event)
            for _ in range(min(len(self._unwatched), _FOLDERS_PER_ROUND)):
                self._watch(self._unwatched.popleft())
            self._account(self._total)

    def _account(self, used: int) -> None:
        with self._lock:
            self.peak = max(self.peak, used)
            if used <= self._limit or self.exceeded:
                return
            self.exceeded = True
        self.stop.set()
        if self._kill is not None:
            self._kill()

    def _handle(self, event: inotify.Event) -> None:
        if event.mask & inotify.IGNORED:
            self._folders.pop(event.wd, None)
            return
        # An overflowed queue lost events: the walk still counts everything.
        folder = self._folders.get(event.wd)
        if folder is None or not event.name:
            return
        path = f"{folder}/{event.name}"
        if event.mask & (inotify.DELETE | inotify.MOVED_FROM):
            self._forget(path, tree=bool(event.mask & inotify.ISDIR))
        else:
            self._stat(path)
            self._account(self._total)

    def _stat(self, path: str) -> None:
        folder, name = path.rsplit("/", 1)
        try:
            if len(path) < _SHORT_PATH:
                size = os.lstat(path).st_blocks * 512
            else:
                with self._opened(folder) as fd:
                    size = os.stat(name, dir_fd=fd, follow_symlinks=False).st_blocks * 512
        except OSError:  # gone meanwhile, or in a folder this user cannot search: the walk counts it
            return
        self._count(path, size)

    def _count(self, path: str, size: int) -> None:
        self._total += size - self._sizes.get(path, 0)
        self._sizes[path] = size

    @contextlib.contextmanager
    def _opened(self, folder: str) -> Iterator[int]:
        """An O_PATH descriptor of ``folder``, however deep: opened from the top a chunk of
        components at a time, each chunk well below PATH_MAX."""
        if len(folder) < _SHORT_PATH:
            fd = os.open(folder, _FOLDER_FLAGS | os.O_NOFOLLOW)
        else:
            fd = os.open(self._top, _FOLDER_FLAGS)
        try:
            rest = "" if len(folder) < _SHORT_PATH else folder[len(self._top) + 1 :]
            while rest:
                cut = len(rest) if len(rest) < _SHORT_PATH else rest.rindex("/", 0, _SHORT_PATH)
                below = os.open(rest[:cut], _FOLDER_FLAGS | os.O_NOFOLLOW, dir_fd=fd)
                os.close(fd)
                fd = below
                rest = rest[cut + 1 :]
            yield fd
        finally:
            os.close(fd)

    def _forget(self, path: str, *, tree: bool) -> None:
        self._total -= self._sizes.pop(path, 0)
        if not tree:
            return
        below = path + "/"
        for name in [name for name in self._sizes if name.startswith(below)]:
            self._total -= self._sizes.pop(name)
        for wd in [wd for wd, folder in self._folders.items() if folder == path or folder.startswith(below)]:
            del self._folders[wd]
            if self._notify is not None:
                self._notify.remove(wd)

    def _watch(self, folder: str) -> None:
        """Watch ``folder``, count what it already holds (written before its watch existed) and
        queue its subfolders."""
        assert self._notify is not None
        if len(self._folders) >= _MAX_WATCHES:
            return
        try:
            with self._opened(folder) as fd:
                wd = self._notify.add(f"/proc/self/fd/{fd}", follow=True)
                if self._folders.get(wd) == folder:
                    return  # queued twice (its creation, and its parent's scan): counted already
                self._folders[wd] = folder
                if folder != self._top:
                    self._count(folder, os.fstat(fd).st_blocks * 512)
                listing = os.open(".", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC, dir_fd=fd)
        except OSError as error:
            if inotify.limit_reached(error):
                log.warning("fs.inotify.max_user_watches reached: %s is counted by walks only", folder)
            return  # gone, or made unreadable before it could be watched: the walk counts it
        try:
            with os.scandir(listing) as entries:
                for entry in entries:
                    if entry.is_dir(follow_symlinks=False):
                        self._unwatched.append(f"{folder}/{entry.name}")
                    else:
                        self._stat(f"{folder}/{entry.name}")
        except OSError:
            pass
        finally:
            os.close(listing)


def margin_mb(disk_mb: int, file_size_mb: int) -> int:
    """How far past ``disk_mb`` a run may be seen before it is stopped, as docs/THREAT_MODEL.md
    states it and the attack benchmark holds it to: one file of RLIMIT_FSIZE (which :mod:`.confine`
    sets to the smaller of the two) written between the write and the kill."""
    return min(file_size_mb, disk_mb)
