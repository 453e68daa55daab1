"""Changes made outside the editor (git checkout, a build script, another tool), through watchdog's
observer on every system.

On Linux the observer is :mod:`.kept_folders`'s: one inotify instance, one watch for each folder
under the roots except the ignored ones (``.git``, ``node_modules``, build and cache folders),
which are neither watched nor walked; the folders are walked on the emitters' threads, so
:meth:`Watcher.start` returns at once and the server's loop never waits for a large tree.
Elsewhere the platform's observer watches each root recursively (one FSEvents stream or one
directory handle per root there, not a watch per folder), and the ignored folders' events are
dropped by :meth:`Watcher.relevant`.

Changed paths only go into a set; the first path of a batch schedules one delivery after
``debounce_s`` through ``schedule`` (the server's loop.call_soon_threadsafe), so a thousand files
touched at once reach the consumer as one call with a thousand paths, never as a thousand calls.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer
from watchdog.observers.api import BaseObserver
from watchdog.utils import UnsupportedLibcError, platform

from cass_lsp.core.filekinds import WATCHED_SUFFIXES

if TYPE_CHECKING:  # importing it needs a libc with inotify
    from cass_lsp.verify.kept_folders import Walked

log = logging.getLogger(__name__)


def _kept_folders_observer(ignore: frozenset[str], walked: Walked) -> BaseObserver | None:
    """The observer over the kept folders; None where inotify is not there (then watchdog's own
    observer watches the roots). OSError when no inotify instance is left."""
    if not platform.is_linux():
        return None
    with contextlib.suppress(UnsupportedLibcError):  # a libc without inotify: watchdog polls
        from cass_lsp.verify.kept_folders import KeptFoldersObserver

        return KeptFoldersObserver(ignore, walked)
    return None


class _Collector(FileSystemEventHandler):
    def __init__(self, watcher: Watcher) -> None:
        self._watcher = watcher

    def on_any_event(self, event: FileSystemEvent) -> None:
        if event.is_directory or event.event_type in ("opened", "closed_no_write"):
            return
        for raw in (event.src_path, getattr(event, "dest_path", "")):
            path = os.fsdecode(raw)
            if path:
                self._watcher.add(path)


class Watcher:
    def __init__(
        self,
        roots: Iterable[str],
        ignore: Iterable[str],
        deliver: Callable[[set[str]], None],
        schedule: Callable[[float, Callable[[], None]], None],
        debounce_s: float,
    ) -> None:
        """``deliver(paths)`` runs through ``schedule(delay, callback)`` (on the consumer's thread)."""
        self.roots = [str(Path(r).resolve()) for r in roots if Path(r).is_dir()]
        self._prefixes = [os.path.join(r, "") for r in self.roots]
        self._ignore = frozenset(ignore)
        self._deliver = deliver
        self._schedule = schedule
        self._debounce_s = debounce_s
        self._lock = threading.Lock()
        self._pending: set[str] = set()
        self._observer: BaseObserver | None = None
        self._walking = len(self.roots)  # roots whose folders are still being watched
        self._started = 0.0
        self.ready = threading.Event()
        """Set once every folder present at the start is watched."""
        self.events = 0
        """Events seen (kept or not): for benchmarks and logs."""

    def relevant(self, path: str) -> bool:
        """A source file outside the ignored folders (below its root: a workspace may itself lie
        inside a folder named like an ignored one). String work only: it runs for every event."""
        if not path.lower().endswith(WATCHED_SUFFIXES):
            return False
        below = next((path[len(r) :] for r in self._prefixes if path.startswith(r)), path)
        return not any(part in self._ignore for part in below.split(os.sep)[:-1])

    def add(self, path: str) -> None:
        self.events += 1
        if not self.relevant(path):
            return
        with self._lock:
            first = not self._pending
            self._pending.add(path)
        if first:
            self._schedule(self._debounce_s, self._flush)

    def _flush(self) -> None:
        with self._lock:
            paths, self._pending = self._pending, set()
        if paths:
            self._deliver(paths)

    def start(self) -> float:
        """Start watching; seconds this call took. Over the kept folders the folders are walked and
        watched on the emitters' threads (:attr:`ready` is set when done), so this returns at once."""
        self._started = time.monotonic()
        try:
            observer = _kept_folders_observer(self._ignore, self._walked)
        except OSError as error:  # fs.inotify.max_user_instances reached, say
            log.warning("cannot watch for changes (%s): only the editor's saves are verified", error)
            self.ready.set()
            return time.monotonic() - self._started
        if observer is None:
            observer = Observer()
            self.ready.set()
        elif not self.roots:
            self.ready.set()
        handler = _Collector(self)
        for root in self.roots:
            try:
                observer.schedule(handler, root, recursive=True)
            except OSError as error:  # a folder that vanished
                log.warning("cannot watch %s: %s", root, error)
        observer.start()
        self._observer = observer
        return time.monotonic() - self._started

    def _walked(self, root: str, watched: int, unwatched: int) -> None:
        log.info(
            "watching %d folders under %s (%.0f ms)%s",
            watched,
            root,
            (time.monotonic() - self._started) * 1000,
            f"; {unwatched} left out at fs.inotify.max_user_watches" if unwatched else "",
        )
        with self._lock:
            self._walking -= 1
            if self._walking <= 0:
                self.ready.set()

    def stop(self) -> None:
        observer, self._observer = self._observer, None
        if observer is not None:
            observer.stop()  # stops its emitters and, over the kept folders, closes the inotify instance
            observer.join(timeout=2.0)
        self.ready.set()
