"""Changes made outside the editor (git checkout, a build script, another tool).

On Linux one inotify descriptor (:mod:`.inotify`) watches each folder under the roots except the
ignored ones (``.git``, ``node_modules``, build and cache folders), which are neither watched nor
walked: a watch is one of the user's ``fs.inotify.max_user_watches``, which the editor needs too.
The folders are walked on the watcher's own thread, so :meth:`Watcher.start` returns at once and
the server's loop never waits for a large tree; a folder that appears later is watched, and the
files already in it reported, when its creation arrives. Elsewhere watchdog's observer watches the
roots recursively (one stream per root there, not a watch per folder).

Changed paths only go into a set; the first path of a batch schedules one delivery after
``debounce_s`` through ``schedule`` (the server's loop.call_soon_threadsafe), so a thousand files
touched at once reach the consumer as one call with a thousand paths, never as a thousand calls.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer

from cass_lsp.core.filekinds import WATCHED_SUFFIXES
from cass_lsp.verify import inotify

log = logging.getLogger(__name__)



def _folders(root: str, ignore: frozenset[str]) -> Iterator[str]:
    """``root`` and every folder under it, never entering an ignored one or following a link."""
    stack = [root]
    while stack:
        folder = stack.pop()
        yield folder
        try:
            with os.scandir(folder) as entries:
                for entry in entries:
                    if entry.name not in ignore and entry.is_dir(follow_symlinks=False):
                        stack.append(entry.path)
        except OSError:  # removed or unreadable meanwhile
            continue


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
        self._observer: Observer | None = None  # type: ignore[valid-type]
        self._thread: threading.Thread | None = None
        self._wake_r, self._wake_w = -1, -1
        self._folders: dict[int, str] = {}  # inotify watch descriptor -> the folder it watches
        self._unwatched = 0  # folders left out at the watch limit
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
        """Start watching; seconds this call took. With inotify the folders are walked and watched
        on the watcher's thread (:attr:`ready` is set when done), so this returns at once."""
        started = time.monotonic()
        if not inotify.available():
            self._start_observer()
            return time.monotonic() - started
        try:
            notify = inotify.Inotify()
        except OSError as error:  # fs.inotify.max_user_instances reached, say
            log.warning("cannot watch for changes (%s): only the editor's saves are verified", error)
            self.ready.set()
            return time.monotonic() - started
        self._wake_r, self._wake_w = os.pipe()
        self._thread = threading.Thread(target=self._run, args=(notify,), name="cass-watcher", daemon=True)
        self._thread.start()
        return time.monotonic() - started

    def stop(self) -> None:
        thread, self._thread = self._thread, None
        if thread is not None:
            os.write(self._wake_w, b"x")
            thread.join(timeout=2.0)
            os.close(self._wake_w)
        observer, self._observer = self._observer, None
        if observer is not None:
            observer.stop()
            observer.join(timeout=2.0)

    # ------------------------------------------------------------------ watchdog (not Linux)
    def _start_observer(self) -> None:
        observer = Observer()
        handler = _Collector(self)
        for root in self.roots:
            try:
                observer.schedule(handler, root, recursive=True)
            except OSError as error:  # a folder that vanished
                log.warning("cannot watch %s: %s", root, error)
        observer.daemon = True
        observer.start()
        self._observer = observer
        self.ready.set()

    # ------------------------------------------------------------------ inotify (the watcher's thread)
    def _stopping(self) -> bool:
        return self._thread is None

    def _run(self, notify: inotify.Inotify) -> None:
        try:
            started = time.monotonic()
            for root in self.roots:
                self._watch_tree(notify, root, report=False)
            self.ready.set()
            log.info(
                "watching %d folders under %s (%.0f ms)%s",
                len(self._folders),
                ", ".join(self.roots),
                (time.monotonic() - started) * 1000,
                f"; {self._unwatched} left out at fs.inotify.max_user_watches" if self._unwatched else "",
            )
            while not self._stopping():
                for event in notify.read(1.0, self._wake_r):
                    self._handle(notify, event)
        finally:
            notify.close()
            os.close(self._wake_r)
            self.ready.set()

    def _watch_tree(self, notify: inotify.Inotify, top: str, *, report: bool) -> None:
        """Watch ``top`` and its folders; with ``report``, its files count as changed (they were
        created, or moved in, before their folder's watch existed)."""
        for folder in _folders(top, self._ignore):
            if self._stopping():
                return
            try:
                self._folders[notify.add(folder)] = folder
            except OSError as error:
                if not inotify.limit_reached(error):
                    continue  # removed meanwhile
                if not self._unwatched:
                    log.warning(
                        "fs.inotify.max_user_watches reached: changes in %s and later folders go unseen", folder
                    )
                self._unwatched += 1
                continue
            if report:
                self._report_files(folder)

    def _report_files(self, folder: str) -> None:
        try:
            with os.scandir(folder) as entries:
                files = [entry.path for entry in entries if entry.is_file(follow_symlinks=False)]
        except OSError:
            return
        for path in files:
            self.add(path)

    def _handle(self, notify: inotify.Inotify, event: inotify.Event) -> None:
        if event.mask & inotify.Q_OVERFLOW:
            log.warning("too many file changes at once: some were not seen (fs.inotify.max_queued_events)")
            return
        if event.mask & inotify.IGNORED:
            self._folders.pop(event.wd, None)
            return
        folder = self._folders.get(event.wd)
        if folder is None or not event.name:
            return  # an event on a watched folder itself, or of a watch already dropped
        path = os.path.join(folder, event.name)
        if not event.mask & inotify.ISDIR:
            self.add(path)
        elif event.name in self._ignore:
            return
        elif event.mask & (inotify.CREATE | inotify.MOVED_TO):
            self._watch_tree(notify, path, report=True)
        elif event.mask & inotify.MOVED_FROM:  # moved elsewhere: its watches would name the old path
            self._unwatch_tree(notify, path)

    def _unwatch_tree(self, notify: inotify.Inotify, top: str) -> None:
        for wd, folder in list(self._folders.items()):
            if folder == top or folder.startswith(top + os.sep):
                del self._folders[wd]
                notify.remove(wd)
