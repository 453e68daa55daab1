"""The watcher's lifecycle in the server: started on `initialized`, restarted only when a setting it
reads changes (a restart re-walks every watched folder), stopped on shutdown."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable
from typing import Any

from cass_lsp.server.app import CassServer
from cass_lsp.server.convert import workspace_roots
from cass_lsp.services.settings import ResolvedSettings
from cass_lsp.verify.watcher import Watcher

log = logging.getLogger(__name__)


class Watching:
    def __init__(self, server: CassServer, changed: Callable[[Iterable[str]], None]) -> None:
        self._server = server
        self._changed = changed
        self._watcher: Watcher | None = None
        self._settings = _watcher_settings(server.resolved)

    def start(self) -> None:
        settings = self._server.resolved.verification
        self.stop()
        if not (settings.enabled and settings.watch):
            return
        roots = workspace_roots(self._server)
        if not roots:
            return
        loop = asyncio.get_running_loop()

        def schedule(delay: float, callback: Any) -> None:
            loop.call_soon_threadsafe(loop.call_later, delay, callback)

        watcher = Watcher(roots, settings.ignore, self._changed, schedule, settings.debounce_ms / 1000)
        seconds = watcher.start()
        self._watcher = watcher
        log.info("watching %s for changes (%.0f ms to start)", ", ".join(watcher.roots), seconds * 1000)

    def stop(self) -> None:
        watcher, self._watcher = self._watcher, None
        if watcher is not None:
            watcher.stop()

    def settings_changed(self, resolved: ResolvedSettings) -> None:
        watched = _watcher_settings(resolved)
        if watched != self._settings:
            self._settings = watched
            self.start()


def _watcher_settings(resolved: ResolvedSettings) -> tuple[object, ...]:
    settings = resolved.verification
    return settings.enabled, settings.watch, tuple(settings.ignore), settings.debounce_ms
