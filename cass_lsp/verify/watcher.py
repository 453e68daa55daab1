"""Changes made outside the editor (git checkout, a build script, another tool), from watchdog.

The observer's thread only collects changed paths into a set; the first path of a batch schedules
one delivery after ``debounce_s`` through ``schedule`` (the server's loop.call_soon_threadsafe),
so a thousand files touched at once reach the consumer as one call with a thousand paths, never
as a thousand calls. Ignored folders (``.git``, build and cache folders) never reach the set.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer

log = logging.getLogger(__name__)

WATCHED_SUFFIXES = (".cu", ".cuh", ".hip", ".h", ".hpp", ".hh", ".cpp", ".cc", ".cxx", ".inl")


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
        self._ignore = frozenset(ignore)
        self._deliver = deliver
        self._schedule = schedule
        self._debounce_s = debounce_s
        self._lock = threading.Lock()
        self._pending: set[str] = set()
        self._observer: Observer | None = None  # type: ignore[valid-type]
        self.events = 0
        """Events seen (kept or not): for benchmarks and logs."""

    def relevant(self, path: str) -> bool:
        if not path.lower().endswith(WATCHED_SUFFIXES):
            return False
        return not any(part in self._ignore for part in Path(path).parts)

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
        """Watch every root (recursively); seconds it took (inotify adds a watch per folder)."""
        started = time.monotonic()
        observer = Observer()
        handler = _Collector(self)
        for root in self.roots:
            try:
                observer.schedule(handler, root, recursive=True)
            except OSError as error:  # inotify watch limit, a folder that vanished
                log.warning("cannot watch %s: %s", root, error)
        observer.daemon = True
        observer.start()
        self._observer = observer
        return time.monotonic() - started

    def stop(self) -> None:
        observer, self._observer = self._observer, None
        if observer is not None:
            observer.stop()
            observer.join(timeout=2.0)
