"""watchdog's inotify observer over the folders worth watching: one inotify instance for every root,
one watch per folder under a root except the ignored ones (``.git``, ``node_modules``, build and
cache folders), which are neither watched nor walked.

watchdog's own schedules do not fit a large tree: a recursive one watches every folder under the
root, the ignored ones too (600 ``node_modules`` folders cost 600 of the user's
``fs.inotify.max_user_watches``, which the editor needs too), and a non-recursive one per folder
costs an emitter thread per folder (and, with watchdog 6, an inotify instance each, out of
``fs.inotify.max_user_instances``: 128 by default, shared by all the user's programs). Here one
emitter per root adds each kept folder to the observer's one inotify descriptor (watchdog's
``InotifyFD``, whose thread reads it) and walks the root on its own thread, so starting returns at
once; a folder that appears later is watched, and the files already in it reported, when its
creation arrives. The emitter reports files only: the watcher reacts to nothing else.
"""

from __future__ import annotations

import errno
import logging
import os
import queue
import time
from collections.abc import Callable, Iterator

from watchdog.events import (
    FileAttribEvent,
    FileClosedEvent,
    FileCreatedEvent,
    FileDeletedEvent,
    FileModifiedEvent,
    FileSystemEvent,
)
from watchdog.observers.api import DEFAULT_OBSERVER_TIMEOUT, BaseObserver, EventEmitter, EventQueue, ObservedWatch
from watchdog.observers.inotify_c import (
    DEFAULT_EVENT_BUFFER_SIZE,
    CallbackId,
    InotifyConstants,
    InotifyEvent,
    InotifyFD,
    Mask,
    WatchDescriptor,
)
from watchdog.utils import Seconds

log = logging.getLogger(__name__)

_IN = InotifyConstants
# what changes a file's content or where it is; opening and reading do not
_CHANGES = _IN.IN_MODIFY | _IN.IN_ATTRIB | _IN.IN_CLOSE_WRITE | _IN.IN_MOVED_FROM | _IN.IN_MOVED_TO
_MASK = Mask(_CHANGES | _IN.IN_CREATE | _IN.IN_DELETE | _IN.IN_ONLYDIR | _IN.IN_DONT_FOLLOW | _IN.IN_EXCL_UNLINK)
_FILE_EVENTS: tuple[tuple[int, type[FileSystemEvent]], ...] = (
    (_IN.IN_CREATE | _IN.IN_MOVED_TO, FileCreatedEvent),
    (_IN.IN_DELETE | _IN.IN_MOVED_FROM, FileDeletedEvent),
    (_IN.IN_CLOSE_WRITE, FileClosedEvent),
    (_IN.IN_MODIFY, FileModifiedEvent),
    (_IN.IN_ATTRIB, FileAttribEvent),
)

_GATHER_S = 0.05
Walked = Callable[[str, int, int], None]
"""Called once per root when the folders present at the start are watched: the root, the folders
watched, the folders left out at ``fs.inotify.max_user_watches``."""


def folders(root: str, ignore: frozenset[str]) -> Iterator[str]:
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


class _GatheringInotifyFD(InotifyFD):
    """watchdog's inotify descriptor, pausing after each read for the rest of a burst (a checkout,
    a build) to queue: one wake-up per burst, not one per file, which would take the GIL from the
    writer at every event."""

    def __init__(self) -> None:
        super().__init__()
        # watchdog opens it without close-on-exec: no compiler or program started later may inherit it.
        os.set_inheritable(self._inotify_fd, False)

    def read_events(self, *, event_buffer_size: int = DEFAULT_EVENT_BUFFER_SIZE) -> list[InotifyEvent]:
        events = super().read_events(event_buffer_size=event_buffer_size)
        if events:
            time.sleep(_GATHER_S)
        return events


class KeptFoldersEmitter(EventEmitter):
    """One root's kept folders on the observer's inotify descriptor. The descriptor's thread only
    hands events over (:meth:`on_event`); the folders are added, looked up and dropped on this
    emitter's thread alone."""

    def __init__(
        self,
        event_queue: EventQueue,
        watch: ObservedWatch,
        *,
        timeout: Seconds,
        event_filter: list[type[FileSystemEvent]] | None = None,
        inotify_fd: InotifyFD,
        ignore: frozenset[str],
        walked: Walked,
    ) -> None:
        super().__init__(event_queue, watch, timeout=timeout, event_filter=event_filter)
        self._inotify_fd = inotify_fd
        self._ignore = ignore
        self._walked = walked
        self._id = CallbackId(id(self))
        self._inbox: queue.SimpleQueue[InotifyEvent | None] = queue.SimpleQueue()  # None: stop
        self._folders: dict[WatchDescriptor, str] = {}
        self._watched: dict[str, WatchDescriptor] = {}
        self._unwatched = 0

    # ------------------------------------------------------------------ the descriptor's thread
    def on_event(self, event: InotifyEvent) -> None:
        self._inbox.put(event)

    def on_watch_deleted(self, wd: WatchDescriptor) -> None:
        self._inbox.put(InotifyEvent(wd, _IN.IN_IGNORED, 0, b""))

    def on_queue_overflow(self) -> None:
        log.warning("too many file changes at once: some were not seen (fs.inotify.max_queued_events)")

    # ------------------------------------------------------------------ the emitter's thread
    def on_thread_stop(self) -> None:
        self._inbox.put(None)  # wakes queue_events, so the observer's join does not wait for its timeout

    def run(self) -> None:
        try:
            self._watch_tree(self.watch.path, report=False)
        finally:
            self._walked(self.watch.path, len(self._folders), self._unwatched)
        try:
            super().run()
        finally:
            self._inotify_fd.remove_callbacks([(wd, self._id) for wd in self._folders])

    def queue_events(self, timeout: Seconds) -> None:
        try:
            event = self._inbox.get(timeout=timeout)
        except queue.Empty:
            return
        if event is not None:
            self._handle(event)

    def _handle(self, event: InotifyEvent) -> None:
        if event.is_ignored:  # the kernel dropped the watch: its folder is gone
            self._forget(event.wd)
            return
        folder = self._folders.get(event.wd)
        if folder is None or not event.name:
            return  # an event on a watched folder itself, or of a watch already dropped
        name = os.fsdecode(event.name)
        path = os.path.join(folder, name)
        if not event.is_directory:
            kind = next((kind for mask, kind in _FILE_EVENTS if event.mask & mask), None)
            if kind is not None:
                self.queue_event(kind(path))
        elif name in self._ignore:
            return
        elif event.is_create or event.is_moved_to:
            self._watch_tree(path, report=True)
        elif event.is_moved_from:  # moved elsewhere: its watches would name the old path
            self._unwatch_tree(path)

    def _watch_tree(self, top: str, *, report: bool) -> None:
        """Watch ``top`` and its folders; with ``report``, its files count as created (they were
        created, or moved in, before their folder's watch existed)."""
        for folder in folders(top, self._ignore):
            if not self.should_keep_running():
                return
            if folder not in self._watched and not self._add(folder):
                continue
            if report:
                self._report_files(folder)

    def _add(self, folder: str) -> bool:
        try:
            wd = self._inotify_fd.add_callback(os.fsencode(folder), _MASK, self, self._id)
        except OSError as error:
            if error.errno == errno.ENOSPC:
                if not self._unwatched:
                    log.warning(
                        "fs.inotify.max_user_watches reached: changes in %s and later folders go unseen", folder
                    )
                self._unwatched += 1
            return False  # otherwise removed meanwhile
        if wd < 0:  # EACCES: watchdog keeps the failed watch, so give it back
            self._inotify_fd.remove_callbacks([(wd, self._id)])
            return False
        self._folders[wd] = folder
        self._watched[folder] = wd
        return True

    def _forget(self, wd: WatchDescriptor) -> None:
        folder = self._folders.pop(wd, None)
        if folder is not None and self._watched.get(folder) == wd:
            del self._watched[folder]

    def _report_files(self, folder: str) -> None:
        try:
            with os.scandir(folder) as entries:
                files = [entry.path for entry in entries if entry.is_file(follow_symlinks=False)]
        except OSError:
            return
        for path in files:
            self.queue_event(FileCreatedEvent(path))

    def _unwatch_tree(self, top: str) -> None:
        below = top + os.sep
        gone = [wd for wd, folder in self._folders.items() if folder == top or folder.startswith(below)]
        for wd in gone:
            self._forget(wd)
        self._inotify_fd.remove_callbacks([(wd, self._id) for wd in gone])


class KeptFoldersObserver(BaseObserver):
    """watchdog's ``InotifyObserver`` with :class:`KeptFoldersEmitter`: schedule each root once
    (``recursive=True``); its kept folders are watched, the ignored ones are not."""

    def __init__(self, ignore: frozenset[str], walked: Walked, *, timeout: Seconds = DEFAULT_OBSERVER_TIMEOUT) -> None:
        self._inotify_fd = _GatheringInotifyFD()  # OSError at fs.inotify.max_user_instances
        self._inotify_fd.start()
        super().__init__(KeptFoldersEmitter, timeout=timeout, inotify_fd=self._inotify_fd, ignore=ignore, walked=walked)

    def on_thread_stop(self) -> None:
        super().on_thread_stop()  # stops and joins the emitters
        self._inotify_fd.stop()  # closes the descriptor: the kernel drops every watch with it
        self._inotify_fd.join()
