"""Job progress as LSP work-done progress (`$/progress`), cancellable from the client's UI.

Jobs report from worker threads; every message is handed to the event loop. A client without
`window.workDoneProgress` gets nothing (the job still runs). A cancel from the client's UI
(`window/workDoneProgress/cancel`) cancels the job's token, which kills its subprocesses.
"""

from __future__ import annotations

import asyncio
import itertools
import logging

from lsprotocol import types

from cass_lsp.core.cancel import CancelToken
from cass_lsp.core.progress import SILENT, Progress
from cass_lsp.server.app import CassServer

log = logging.getLogger(__name__)

_TOKENS = itertools.count(1)
ProgressValue = types.WorkDoneProgressBegin | types.WorkDoneProgressReport | types.WorkDoneProgressEnd


class _Reporter:
    def __init__(self, sink: LspProgress, token: str) -> None:
        self._sink = sink
        self._token = token

    def report(self, message: str | None = None, percentage: int | None = None) -> None:
        value = types.WorkDoneProgressReport(message=message, percentage=percentage)
        self._sink.send(self._token, value)

    def end(self, message: str | None = None) -> None:
        self._sink.send(self._token, types.WorkDoneProgressEnd(message=message))
        self._sink.forget(self._token)


class LspProgress:
    def __init__(self, server: CassServer, loop: asyncio.AbstractEventLoop) -> None:
        self._server = server
        self._loop = loop
        self._cancels: dict[str, CancelToken] = {}
        self._created: dict[str, asyncio.Future[None]] = {}

    def begin(self, title: str, cancel: CancelToken | None) -> Progress:
        token = f"cass-{next(_TOKENS)}"
        if cancel is not None:
            self._cancels[token] = cancel
        self._loop.call_soon_threadsafe(self._begin, token, title, cancel is not None)
        return _Reporter(self, token)

    def _begin(self, token: str, title: str, cancellable: bool) -> None:
        created = asyncio.ensure_future(
            self._server.window_work_done_progress_create_async(types.WorkDoneProgressCreateParams(token=token))
        )
        self._created[token] = created
        begin = types.WorkDoneProgressBegin(title=title, cancellable=cancellable)
        created.add_done_callback(lambda f: self._after_create(f, token, begin))

    def _after_create(self, created: asyncio.Future[None], token: str, value: ProgressValue) -> None:
        if created.cancelled() or created.exception() is not None:
            log.debug("the client refused progress token %s", token)
            return
        self._server.progress(types.ProgressParams(token=token, value=value))

    def send(self, token: str, value: types.WorkDoneProgressReport | types.WorkDoneProgressEnd) -> None:
        self._loop.call_soon_threadsafe(self._send, token, value)

    def _send(self, token: str, value: types.WorkDoneProgressReport | types.WorkDoneProgressEnd) -> None:
        created = self._created.get(token)
        if created is None:
            return
        if isinstance(value, types.WorkDoneProgressEnd):
            del self._created[token]
        # after the create request was answered and the begin went out, in order
        created.add_done_callback(lambda f: self._after_create(f, token, value))

    def forget(self, token: str) -> None:
        self._cancels.pop(token, None)

    def cancel(self, token: str) -> None:
        cancel = self._cancels.pop(token, None)
        if cancel is not None:
            cancel.cancel()


def _client_shows_progress(ls: CassServer) -> bool:
    window = ls.client_capabilities.window
    return bool(window and window.work_done_progress)


def register(server: CassServer) -> None:
    sink: LspProgress | None = None

    def attach() -> None:
        nonlocal sink
        if _client_shows_progress(server):
            sink = LspProgress(server, asyncio.get_running_loop())
            server.set_progress(sink)
        else:
            server.set_progress(SILENT)

    server.on_initialize.append(attach)

    @server.feature(types.WINDOW_WORK_DONE_PROGRESS_CANCEL)
    def cancel(ls: CassServer, params: types.WorkDoneProgressCancelParams) -> None:
        if sink is not None:
            sink.cancel(str(params.token))
